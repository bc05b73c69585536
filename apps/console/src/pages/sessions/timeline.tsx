import { Box, Group, Stack, Text } from '@mantine/core';
import { EmptyState } from '../../components/states';
import type { Span } from './session-insights';

/** One lane per thread; each span is a bar as long as it took. */
export function Timeline({ spans }: { spans: Span[] }) {
  if (spans.length === 0)
    return <EmptyState title="Nothing timed yet">Model requests and tool calls appear here.</EmptyState>;
  const start = Math.min(...spans.map((s) => s.start));
  const total = Math.max(1, Math.max(...spans.map((s) => s.end)) - start);
  const lanes = [...new Set(spans.map((s) => s.lane))];
  return (
    <Stack gap="md" role="list" aria-label="Timeline">
      {lanes.map((lane) => (
        <Box key={lane} role="listitem">
          <Text size="sm" fw={600} mb={4}>
            {lane}
          </Text>
          <Stack gap={4}>
            {spans
              .filter((s) => s.lane === lane)
              .map((span, i) => {
                const ms = span.end - span.start;
                const label = `${span.label}: ${ms} ms${span.failed ? ' (failed)' : ''}`;
                return (
                  <Group key={i} gap="xs" wrap="nowrap" tabIndex={0} aria-label={label}>
                    <Text size="xs" w={200} truncate>
                      {label}
                    </Text>
                    <Box pos="relative" h={16} style={{ flex: 1 }} bg="gray.1">
                      <Box
                        pos="absolute"
                        top={0}
                        h={16}
                        left={`${((span.start - start) / total) * 100}%`}
                        w={`max(${(ms / total) * 100}%, 3px)`}
                        bg={span.failed ? 'red.9' : span.label === 'model request' ? 'indigo.8' : 'teal.9'}
                      />
                    </Box>
                  </Group>
                );
              })}
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
