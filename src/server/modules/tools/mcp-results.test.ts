import { describe, expect, it } from 'vitest';
import { MAX_RESULT_CHARS, readToolResult, type ToolSource } from './mcp-results';

describe('MCP tool results as the model reads them', () => {
  const numbering = () => {
    const added: ToolSource[] = [];
    return { added, add: (s: ToolSource) => added.push(s) };
  };

  it('numbers embedded resources and links as sources, names images, and keeps structured content', () => {
    const { added, add } = numbering();
    const guide = { uri: 'https://docs.example/a', title: 'Guide' };
    const read = readToolResult(
      {
        content: [
          // A title on the contents is not in the SDK's types, but servers send one (the spec's BaseMetadata).
          { type: 'resource', resource: { ...guide, text: 'Step one, then two.' } },
          { type: 'resource_link', uri: 'file:///notes.md', name: 'notes.md' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        structuredContent: { total: 3 },
      },
      add,
    );
    expect(read.text).toBe(
      [
        '{"total":3}',
        '[1] Guide (https://docs.example/a)\nStep one, then two.',
        '[2] notes.md (file:///notes.md)',
        '[image image/png not shown]',
      ].join('\n\n'),
    );
    // Only web addresses become links to follow.
    expect(added).toEqual([
      { kind: 'tool', title: 'Guide', url: 'https://docs.example/a', snippet: 'Step one, then two.' },
      { kind: 'tool', title: 'notes.md', snippet: '' },
    ]);
    expect(read.sources).toEqual([
      { n: 1, title: 'Guide', url: 'https://docs.example/a' },
      { n: 2, title: 'notes.md' },
    ]);
  });

  it('cuts a long result with a note saying how much is left out', () => {
    const read = readToolResult({ content: [{ type: 'text', text: 'x'.repeat(MAX_RESULT_CHARS + 500) }] }, () => 1);
    expect(read.text).toHaveLength(
      MAX_RESULT_CHARS + '\n[…the rest of the result is cut off: 500 more characters]'.length,
    );
    expect(read.text.endsWith('[…the rest of the result is cut off: 500 more characters]')).toBe(true);
  });
});
