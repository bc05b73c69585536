import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import JSZip from 'jszip';

const digest = (data: Buffer | string) => createHash('sha256').update(data).digest();

/** A pure-Python wheel of one module `<module>` whose `VALUE` is `value`. */
async function wheel(name: string, version: string, value: string): Promise<{ file: string; data: Buffer }> {
  const module = name.replace(/-/g, '_');
  const info = `${module}-${version}.dist-info`;
  const files: Record<string, string> = {
    [`${module}/__init__.py`]: `VALUE = ${JSON.stringify(value)}\n`,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`,
    [`${info}/WHEEL`]:
      'Wheel-Version: 1.0\nGenerator: agentry-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  const record = Object.entries(files).map(
    ([path, text]) => `${path},sha256=${digest(text).toString('base64url')},${Buffer.byteLength(text)}`,
  );
  const zip = new JSZip();
  for (const [path, text] of Object.entries(files)) zip.file(path, text);
  zip.file(`${info}/RECORD`, `${[...record, `${info}/RECORD,,`].join('\n')}\n`);
  const data = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  return { file: `${module}-${version}-py3-none-any.whl`, data };
}

/**
 * A PEP 503 "simple" package index on loopback serving one wheel, as a PyPI mirror would. `requests`
 * lists the paths pip asked for.
 */
export async function servePipIndex(name: string, version: string, value: string) {
  const { file, data } = await wheel(name, version, value);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === `/simple/${name}/`) {
      const sha = createHash('sha256').update(data).digest('hex');
      res.setHeader('content-type', 'text/html');
      res.end(`<!DOCTYPE html><html><body><a href="/files/${file}#sha256=${sha}">${file}</a></body></html>`);
    } else if (req.url === `/files/${file}`) {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(data);
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/simple`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
