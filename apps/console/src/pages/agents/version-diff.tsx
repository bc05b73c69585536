import { Box, Code, Group, Select, Text } from '@mantine/core';
import { diffLines } from 'diff';
import { useState } from 'react';

interface Version {
  version: number;
  [field: string]: unknown;
}

const comparable = (version: Version) => {
  const { updated_at: _u, created_at: _c, archived_at: _a, ...rest } = version as Record<string, unknown>;
  return JSON.stringify(rest, null, 2);
};

/** Two versions of an agent side by side as a line diff (newest against the one before by default). */
export function VersionDiff({ versions }: { versions: Version[] }) {
  const sorted = [...versions].sort((a, b) => b.version - a.version);
  const [to, setTo] = useState(String(sorted[0]?.version ?? ''));
  const [from, setFrom] = useState(String(sorted[1]?.version ?? sorted[0]?.version ?? ''));
  const options = sorted.map((v) => ({ value: String(v.version), label: `Version ${v.version}` }));
  const a = sorted.find((v) => String(v.version) === from);
  const b = sorted.find((v) => String(v.version) === to);
  if (!a || !b) return null;
  const parts = diffLines(comparable(a), comparable(b));
  return (
    <Box>
      <Group mb="sm">
        <Select
          label="From"
          data={options}
          value={from}
          onChange={(v) => v && setFrom(v)}
          w={160}
          allowDeselect={false}
        />
        <Select
          label="To"
          data={options}
          value={to}
          onChange={(v) => v && setTo(v)}
          w={160}
          allowDeselect={false}
        />
      </Group>
      <Text size="sm" mb="xs" aria-live="polite">
        Changes from version {a.version} to version {b.version}
      </Text>
      <Code
        block
        aria-label={`Diff from version ${a.version} to version ${b.version}`}
        data-testid="version-diff"
      >
        {parts.map((part, i) => {
          const mark = part.added ? '+' : part.removed ? '-' : ' ';
          const lines = part.value.replace(/\n$/, '').split('\n');
          return (
            <span
              key={i}
              style={{
                display: 'block',
                background: part.added ? '#d3f9d8' : part.removed ? '#ffe3e3' : undefined,
              }}
            >
              {lines.map((line) => `${mark} ${line}`).join('\n')}
            </span>
          );
        })}
      </Code>
    </Box>
  );
}
