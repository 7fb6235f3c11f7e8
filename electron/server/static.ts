/** Serves the built renderer: files under one folder only, with the main screen's token in index.html. */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; media-src 'self' blob: mediastream:",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function staticHandler(root: string, tokenFor: (req: IncomingMessage) => string | null) {
  const base = normalize(root + sep);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end('method not allowed');
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rel = path === '/' ? 'index.html' : path.slice(1);
    const file = normalize(join(base, rel));
    if (!file.startsWith(base)) {
      res.writeHead(404).end('not found');
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(rel === 'index.html' ? 'the renderer is not built: run `npm run build`' : 'not found');
      return;
    }
    if (rel === 'index.html') {
      const token = tokenFor(req);
      const meta = token ? `<meta name="companion-token" content="${token}">` : '';
      body = Buffer.from(body.toString('utf8').replace('<head>', `<head>${meta}`));
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store', ...SECURITY_HEADERS });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
