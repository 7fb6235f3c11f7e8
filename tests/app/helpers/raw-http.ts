/** One HTTP request written byte for byte (fetch would normalise a bad target), the whole answer back. */
import { connect } from 'node:net';

export function rawHttp(port: number, request: string | Buffer, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => {
      s.destroy();
      resolve(out);
    }, timeoutMs);
    s.on('connect', () => s.write(request));
    s.on('data', (d) => (out += d.toString('latin1')));
    s.on('end', () => {
      clearTimeout(timer);
      resolve(out);
    });
    s.on('error', (e) => {
      clearTimeout(timer);
      if (out) resolve(out);
      else reject(e);
    });
  });
}
