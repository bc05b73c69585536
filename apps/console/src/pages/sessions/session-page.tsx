import { Alert, Badge, Button, Group, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { EmptyState, QueryState } from '../../components/states';
import { Conversation } from './conversation';
import type { SessionBody } from './session-body';
import { spansOf, toolStatsOf } from './session-insights';
import { Timeline } from './timeline';
import { useSessionEvents, type SessionEvent } from './use-session-events';
import { UsagePanel } from './usage-panel';

/** A session as it happens: conversation with approvals, timeline, tools, usage against the budget. */
export function SessionPage() {
  const { id = '' } = useParams();
  const [search] = useSearchParams();
  const api = useApi();
  const { headers } = useAuth();
  const feed = useSessionEvents(id, headers);
  const lastSeq = feed.events.at(-1)?.seq ?? 0;
  const session = useQuery({
    queryKey: ['session', id, lastSeq],
    queryFn: () => api.call<SessionBody>('GET', `/v1/sessions/${id}`),
    placeholderData: (previous) => previous,
  });
  const focused = search.get('event');
  useEffect(() => {
    if (focused) document.getElementById(focused)?.scrollIntoView({ block: 'center' });
  }, [focused, feed.events.length]);
  return (
    <QueryState query={session}>
      {(data) => (
        <Stack>
          <Group justify="space-between">
            <Group>
              <Title order={2}>{data.title || 'Session'}</Title>
              <Badge data-testid="session-status" color={data.status === 'running' ? 'green' : 'gray'}>
                {data.status}
                {data.stop_reason?.type && data.status === 'idle' ? ` · ${data.stop_reason.type}` : ''}
              </Badge>
              <Badge variant="outline" color={feed.connected ? 'teal.9' : 'gray.8'}>
                {feed.connected ? 'live' : 'connecting'}
              </Badge>
            </Group>
            <Button variant="default" onClick={() => download(id, feed.events)}>
              Download transcript
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            {id} · agent {data.agent?.id} v{data.agent?.version}
          </Text>
          {feed.error ? (
            <Alert color="red" role="alert">
              {feed.error}
            </Alert>
          ) : null}
          <UsagePanel session={data} />
          <Tabs defaultValue="conversation" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="conversation">Conversation</Tabs.Tab>
              <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
              <Tabs.Tab value="tools">Tools</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="conversation" pt="md">
              <Conversation sessionId={id} feed={feed} status={data.status} focused={focused} />
            </Tabs.Panel>
            <Tabs.Panel value="timeline" pt="md">
              <Timeline spans={spansOf(feed.events)} />
            </Tabs.Panel>
            <Tabs.Panel value="tools" pt="md">
              <ToolsTable events={feed.events} />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </QueryState>
  );
}

function ToolsTable({ events }: { events: SessionEvent[] }) {
  const stats = toolStatsOf(events);
  if (stats.length === 0) return <EmptyState title="No tool calls yet" />;
  return (
    <Paper withBorder>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Tool</Table.Th>
            <Table.Th>Calls</Table.Th>
            <Table.Th>Failures</Table.Th>
            <Table.Th>Median duration</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stats.map((s) => (
            <Table.Tr key={s.name}>
              <Table.Td>{s.name}</Table.Td>
              <Table.Td>{s.calls}</Table.Td>
              <Table.Td>{s.failures}</Table.Td>
              <Table.Td>{s.medianMs === null ? '—' : `${Math.round(s.medianMs)} ms`}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function download(id: string, events: SessionEvent[]): void {
  const blob = new Blob([`${JSON.stringify(events, null, 2)}\n`], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `${id}.json`;
  link.click();
  URL.revokeObjectURL(link.href);
}
