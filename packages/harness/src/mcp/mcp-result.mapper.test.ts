import { describe, expect, it } from 'vitest';
import { validateMcpConnectionConfigs } from './mcp-connection.config.js';
import { toToolOutcome } from './mcp-result.mapper.js';
import { toMcpConnectionConfigs } from './mcp-tools-json.mapper.js';

describe('toToolOutcome', () => {
  it('keeps text and images, and describes what the model port cannot carry', () => {
    const outcome = toToolOutcome({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAAAAAA' } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
      ],
    });
    expect(outcome).toEqual({
      status: 'ok',
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'text', text: '[audio audio/wav, 3 bytes, not shown]' },
        { type: 'text', text: 'inline text' },
        { type: 'text', text: '[resource file:///b.bin (binary), 6 bytes]' },
        { type: 'text', text: '[resource link: c file:///c]' },
      ],
    });
  });

  it('reports isError results as errors with a reason', () => {
    expect(
      toToolOutcome({ content: [{ type: 'text', text: 'Access denied: /etc' }], isError: true }),
    ).toEqual({
      status: 'error',
      content: [{ type: 'text', text: 'Access denied: /etc' }],
      reason: 'Access denied: /etc',
    });
  });

  it('falls back to structured content, and to legacy toolResult', () => {
    expect(toToolOutcome({ content: [], structuredContent: { sum: 3 } })).toEqual({
      status: 'ok',
      content: [{ type: 'text', text: '{"sum":3}' }],
    });
    expect(toToolOutcome({ toolResult: [1, 2] })).toEqual({
      status: 'ok',
      content: [{ type: 'text', text: '[1,2]' }],
    });
  });
});

describe('MCP connection configs', () => {
  it('maps tools.json entries: command means stdio, url means http, query params and timeout kept', () => {
    expect(
      toMcpConnectionConfigs({
        fs: { command: 'node', args: ['server.js'], enableTools: ['read_file'], timeout: 5000 },
        docs: {
          url: 'https://docs.example/mcp',
          queryParams: { key: 'k' },
          headers: { authorization: 'Bearer t' },
        },
        legacy: { transport: 'sse', url: 'http://127.0.0.1:3001/sse' },
      }),
    ).toEqual([
      {
        name: 'fs',
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        enableTools: ['read_file'],
        timeoutMs: 5000,
      },
      {
        name: 'docs',
        transport: 'http',
        url: 'https://docs.example/mcp?key=k',
        headers: { authorization: 'Bearer t' },
      },
      { name: 'legacy', transport: 'sse', url: 'http://127.0.0.1:3001/sse' },
    ]);
    expect(() => toMcpConnectionConfigs({ x: { transport: 'http' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST' }),
    );
  });

  it('rejects bad names, duplicates and bad URLs', () => {
    const ok = { transport: 'stdio' as const, command: 'node' };
    expect(() => validateMcpConnectionConfigs([{ ...ok, name: 'has space' }])).toThrow(/name must be/);
    expect(() =>
      validateMcpConnectionConfigs([
        { ...ok, name: 'a' },
        { ...ok, name: 'a' },
      ]),
    ).toThrow(/used twice/);
    expect(() => validateMcpConnectionConfigs([{ name: 'h', transport: 'http', url: 'not a url' }])).toThrow(
      /not a valid URL/,
    );
  });
});
