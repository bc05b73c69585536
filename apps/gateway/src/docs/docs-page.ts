import type { OpenApiDocument } from './openapi-builder.js';

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A self-contained page (no scripts, no CDN) listing every operation, grouped by tag. */
export function renderDocsPage(document: OpenApiDocument): string {
  const groups = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = ((op.tags as string[] | undefined) ?? ['other'])[0] ?? 'other';
      const open = Array.isArray(op.security) && op.security.length === 0 ? ' <em>public</em>' : '';
      const row = `<li><code class="m ${method}">${method.toUpperCase()}</code> <code>${escape(path)}</code> <small>${escape(String(op.operationId))}</small>${open}</li>`;
      groups.set(tag, [...(groups.get(tag) ?? []), row]);
    }
  }
  const sections = [...groups.entries()]
    .map(([tag, rows]) => `<h2>${escape(tag)}</h2><ul>${rows.join('')}</ul>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(document.info.title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:60rem}li{margin:.2rem 0;list-style:none}
.m{display:inline-block;width:4.5rem;font-weight:bold}.get{color:#06c}.post{color:#080}.put,.patch{color:#a60}.delete{color:#c00}</style>
</head><body><h1>${escape(document.info.title)} ${escape(document.info.version)}</h1>
<p>${escape(document.info.description)}</p><p>Machine-readable: <a href="/docs/openapi.json">/docs/openapi.json</a> (OpenAPI ${document.openapi}).</p>
${sections}
</body></html>
`;
}
