import { Anchor, Button, Group, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { EmptyState, QueryState } from '../../components/states';

interface AgentRow {
  id: string;
  name: string;
  model: { id: string } | string;
  version: number;
  updated_at: string;
  archived_at: string | null;
}

export function AgentsPage() {
  const api = useApi();
  const { canEdit } = useAuth();
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: () => api.call<{ data: AgentRow[] }>('GET', '/v1/agents', undefined, { limit: 100 }),
  });
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={2}>Agents</Title>
        {canEdit ? (
          <Button component={Link} to="/agents/new">
            New agent
          </Button>
        ) : null}
      </Group>
      <QueryState query={agents}>
        {(page) =>
          page.data.length === 0 ? (
            <EmptyState title="No agents yet">
              {canEdit ? 'Create one with “New agent”.' : 'Someone who can edit creates them.'}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Model</Table.Th>
                    <Table.Th>Version</Table.Th>
                    <Table.Th>Updated</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.data.map((agent) => (
                    <Table.Tr key={agent.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/agents/${agent.id}`}>
                          {agent.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{typeof agent.model === 'string' ? agent.model : agent.model.id}</Table.Td>
                      <Table.Td>{agent.version}</Table.Td>
                      <Table.Td>{new Date(agent.updated_at).toLocaleString()}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </>
  );
}
