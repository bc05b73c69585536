import { Anchor, Badge, Button, Group, Paper, Select, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { EmptyState, ErrorState, QueryState } from '../../components/states';
import type { SessionBody } from './session-body';

const STATUSES = ['idle', 'running', 'terminated'];

/** Sessions with filters (status, agent, cost, time), and a form to start one. */
export function SessionsPage() {
  const api = useApi();
  const { canEdit } = useAuth();
  const [status, setStatus] = useState<string | null>(null);
  const [agent, setAgent] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const [minCost, setMinCost] = useState('');
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: () =>
      api.call<{ data: { id: string; name: string }[] }>('GET', '/v1/agents', undefined, { limit: 100 }),
  });
  const sessions = useQuery({
    queryKey: ['sessions', status, agent, since],
    queryFn: () =>
      api.call<{ data: SessionBody[] }>('GET', '/v1/sessions', undefined, {
        limit: 100,
        'statuses[]': status ?? undefined,
        agent_id: agent ?? undefined,
        'created_at[gte]': since ? new Date(since).toISOString() : undefined,
      }),
  });
  const names = new Map((agents.data?.data ?? []).map((a) => [a.id, a.name]));
  return (
    <Stack>
      <Title order={2}>Sessions</Title>
      {canEdit ? <NewSession agents={agents.data?.data ?? []} /> : null}
      <Group align="end" role="search" aria-label="Filter sessions">
        <Select label="By status" data={STATUSES} value={status} onChange={setStatus} clearable w={150} />
        <Select
          label="By agent"
          data={(agents.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          value={agent}
          onChange={setAgent}
          clearable
          w={200}
        />
        <TextInput
          label="Since"
          type="datetime-local"
          value={since}
          onChange={(e) => setSince(e.currentTarget.value)}
        />
        <TextInput
          label="Cost at least ($)"
          inputMode="decimal"
          value={minCost}
          onChange={(e) => setMinCost(e.currentTarget.value)}
          w={150}
        />
      </Group>
      <QueryState query={sessions}>
        {(page) => {
          const rows = page.data.filter(
            (s) => !minCost || Number(s.usage?.list_cost?.amount ?? 0) >= Number(minCost),
          );
          if (rows.length === 0)
            return <EmptyState title="No sessions match">Start one, or change the filters.</EmptyState>;
          return (
            <Table.ScrollContainer minWidth={640}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Session</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Agent</Table.Th>
                    <Table.Th>Cost</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((s) => (
                    <Table.Tr key={s.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/sessions/${s.id}`}>
                          {s.title || s.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={s.status === 'running' ? 'green' : 'gray'}>
                          {s.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{names.get(s.agent?.id ?? '') ?? s.agent?.id}</Table.Td>
                      <Table.Td>{s.usage?.list_cost ? `$${s.usage.list_cost.amount}` : '—'}</Table.Td>
                      <Table.Td>{new Date(s.created_at).toLocaleString()}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          );
        }}
      </QueryState>
    </Stack>
  );
}

function NewSession({ agents }: { agents: { id: string; name: string }[] }) {
  const api = useApi();
  const navigate = useNavigate();
  const [agent, setAgent] = useState<string | null>(null);
  const [environment, setEnvironment] = useState<string | null>(null);
  const environments = useQuery({
    queryKey: ['environments'],
    queryFn: () =>
      api.call<{ data: { id: string; name: string }[] }>('GET', '/v1/environments', undefined, {
        limit: 100,
      }),
  });
  const start = useMutation({
    mutationFn: () =>
      api.call<{ id: string }>('POST', '/v1/sessions', { agent, environment_id: environment }),
    onSuccess: (session) => navigate(`/sessions/${session.id}`),
  });
  return (
    <Paper withBorder p="sm" component="section" aria-label="Start a session">
      <Group align="end">
        <Select
          label="Agent"
          data={agents.map((a) => ({ value: a.id, label: a.name }))}
          value={agent}
          onChange={setAgent}
          w={220}
        />
        <Select
          label="Environment"
          data={(environments.data?.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
          value={environment}
          onChange={setEnvironment}
          w={220}
        />
        <Button disabled={!agent || !environment} loading={start.isPending} onClick={() => start.mutate()}>
          Start session
        </Button>
      </Group>
      {start.error ? <ErrorState error={start.error} /> : null}
    </Paper>
  );
}
