import { Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api';
import { EmptyState, QueryState } from '../../components/states';

interface UsageRow {
  agent_id: string | null;
  day: string;
  model: string | null;
  model_requests: number;
  input_tokens: number;
  output_tokens: number;
  list_cost?: { amount: string };
}

/** Usage per agent and day, from the usage ledger. */
export function UsagePage() {
  const api = useApi();
  const usage = useQuery({
    queryKey: ['usage'],
    queryFn: () => api.call<{ data: UsageRow[] }>('GET', '/v1/usage?group_by=agent&group_by=day'),
  });
  return (
    <Stack>
      <Title order={2}>Usage</Title>
      <QueryState query={usage}>
        {(reply) =>
          reply.data.length === 0 ? (
            <EmptyState title="No usage yet">Model requests are counted here per agent and day.</EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Day</Table.Th>
                    <Table.Th>Agent</Table.Th>
                    <Table.Th>Requests</Table.Th>
                    <Table.Th>Input tokens</Table.Th>
                    <Table.Th>Output tokens</Table.Th>
                    <Table.Th>Cost</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {reply.data.map((row, i) => (
                    <Table.Tr key={i}>
                      <Table.Td>{row.day}</Table.Td>
                      <Table.Td>{row.agent_id ?? '—'}</Table.Td>
                      <Table.Td>{row.model_requests}</Table.Td>
                      <Table.Td>{row.input_tokens}</Table.Td>
                      <Table.Td>{row.output_tokens}</Table.Td>
                      <Table.Td>{row.list_cost ? `$${row.list_cost.amount}` : '—'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}
