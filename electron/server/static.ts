/** Serves the built renderer: files under one folder only, with the main screen's token in index.html. */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { SECURITY_HEADERS } from './headers.js';

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

/** The path asked for, decoded; null when the request target is not a URL path or its escapes are bad. */
function requestedPath(target: string): string | null {
  if (!target.startsWith('/')) return null;
  try {
    const path = decodeURIComponent(new URL(target, 'http://x').pathname);
    return path.includes('\0') ? null : path;
  } catch {
    return null;
  }
}

const plain = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...SECURITY_HEADERS };

/**
 * The request handler. It never rejects: a request it cannot make sense of is answered 400, and a
 * fault while answering (a file read failing half-way) 500 or a closed connection — never a
 * rejection left to the process (issue 28: one `GET /%` used to stop the app).
 */
export function staticHandler(root: string, tokenFor: (req: IncomingMessage) => string | null) {
  const serve = fileServer(root, tokenFor);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await serve(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500, plain).end('internal error');
      else res.destroy();
    }
  };
}

function fileServer(root: string, tokenFor: (req: IncomingMessage) => string | null) {
  const base = normalize(root + sep);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', ...plain }).end('method not allowed');
      return;
    }
    const path = requestedPath(req.url ?? '/');
    if (path === null) {
      res.writeHead(400, plain).end('bad request: the path is not a valid URL path');
      return;
    }
    const rel = path === '/' ? 'index.html' : path.slice(1);
    const file = normalize(join(base, rel));
    if (!file.startsWith(base)) {
      res.writeHead(404, plain).end('not found');
      return;
    }
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, plain).end(rel === 'index.html' ? 'the renderer is not built: run `npm run build`' : 'not found');
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
