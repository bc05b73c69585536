import type { OpenApiDocument } from './openapi-builder.js';

/**
 * The interactive reference: Swagger UI, loaded from this gateway (no CDN), on `/docs/openapi.json`.
 * Without scripts the page lists every operation by tag and links the document.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const title = escapeHtml(document.info.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<main id="reference" aria-label="${title} reference"></main>
<noscript><h1>${title} ${escapeHtml(document.info.version)}</h1>
<p>The document itself: <a href="/docs/openapi.json">/docs/openapi.json</a> (OpenAPI ${document.openapi}).</p>
${operationList(document)}</noscript>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/reference.js"></script>
</body>
</html>
`;
}

/** Every operation under its tag, marking the public ones. */
function operationList(document: OpenApiDocument): string {
  const groups = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = ((op.tags as string[] | undefined) ?? ['other'])[0] ?? 'other';
      const open = Array.isArray(op.security) && op.security.length === 0 ? ' <em>public</em>' : '';
      const summary = typeof op.summary === 'string' ? ` — ${escapeHtml(op.summary)}` : '';
      const row = `<li><code>${method.toUpperCase()}</code> <code>${escapeHtml(path)}</code>${summary}${open}</li>`;
      groups.set(tag, [...(groups.get(tag) ?? []), row]);
    }
  }
  return [...groups.entries()]
    .map(([tag, rows]) => `<h2>${escapeHtml(tag)}</h2><ul>${rows.join('')}</ul>`)
    .join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
