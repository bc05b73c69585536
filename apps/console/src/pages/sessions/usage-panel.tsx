import { Group, Paper, Progress, Text } from '@mantine/core';
import type { SessionBody } from './session-body';

/** Tokens and list cost so far, against the session's budget when it has one. */
export function UsagePanel({ session }: { session: SessionBody }) {
  const usage = session.usage ?? {};
  const cost = usage.list_cost?.amount;
  const limit = session.budget?.max_list_cost?.amount;
  const share = cost && limit ? Math.min(100, (Number(cost) / Number(limit)) * 100) : null;
  return (
    <Paper withBorder p="sm" aria-label="Usage and cost">
      <Group gap="xl">
        <Text size="sm">
          Input tokens <b>{usage.input_tokens ?? 0}</b>
        </Text>
        <Text size="sm">
          Output tokens <b>{usage.output_tokens ?? 0}</b>
        </Text>
        <Text size="sm" data-testid="session-cost">
          Cost <b>{cost !== undefined ? `$${cost}` : '—'}</b>
          {limit ? ` of $${limit} budget` : ' (no budget)'}
        </Text>
      </Group>
      {share !== null ? <Progress mt="xs" value={share} aria-label="Budget used" /> : null}
    </Paper>
  );
}
