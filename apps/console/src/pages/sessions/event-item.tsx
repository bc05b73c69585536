import { Badge, Code, Group, Paper, Text } from '@mantine/core';
import { textOf, type SessionEvent } from './use-session-events';

const LABELS: Record<string, string> = {
  'user.message': 'You',
  'agent.message': 'Agent',
  'agent.thinking': 'Thinking',
  'agent.tool_use': 'Tool call',
  'agent.tool_result': 'Tool result',
  'agent.mcp_tool_use': 'MCP call',
  'agent.mcp_tool_result': 'MCP result',
  'agent.custom_tool_use': 'Custom tool call',
  'user.tool_confirmation': 'Decision',
  'user.interrupt': 'Interrupt',
  'session.error': 'Error',
};

/** One event of the conversation; status and span events are left to the timeline. */
export function EventItem({ event, highlighted }: { event: SessionEvent; highlighted: boolean }) {
  const label = LABELS[event.type];
  if (!label) return null;
  const thread = event.session_thread_id ? (
    <Badge size="xs" variant="outline">
      thread {String(event.session_thread_id).slice(-6)}
    </Badge>
  ) : null;
  return (
    <Paper
      id={event.id}
      withBorder
      p="sm"
      bg={highlighted ? 'yellow.0' : event.type === 'session.error' ? 'red.0' : undefined}
      aria-label={`${label} (event ${event.seq})`}
      component="article"
    >
      <Group gap="xs" mb={4}>
        <Text size="sm" fw={600}>
          {label}
        </Text>
        {thread}
        {event.type.endsWith('tool_use') && event.evaluated_permission === 'ask' ? (
          <Badge size="xs" color="red.9">
            needs approval
          </Badge>
        ) : null}
        <Text size="xs" c="dimmed" component="a" href={`?event=${event.id}`}>
          #{event.seq}
        </Text>
      </Group>
      <EventBody event={event} />
    </Paper>
  );
}

function EventBody({ event }: { event: SessionEvent }) {
  switch (event.type) {
    case 'user.message':
    case 'agent.message':
      return <Text style={{ whiteSpace: 'pre-wrap' }}>{textOf(event.content)}</Text>;
    case 'agent.tool_use':
    case 'agent.mcp_tool_use':
    case 'agent.custom_tool_use':
      return (
        <>
          <Text size="sm">
            {event.mcp_server_name ? `${String(event.mcp_server_name)} / ` : ''}
            <Code>{String(event.name)}</Code>
          </Text>
          <Code block mt={4}>
            {JSON.stringify(event.input, null, 2)}
          </Code>
        </>
      );
    case 'agent.tool_result':
    case 'agent.mcp_tool_result':
      return (
        <Code block c={event.is_error ? 'red.9' : undefined}>
          {textOf(event.content) || '(no output)'}
        </Code>
      );
    case 'user.tool_confirmation':
      return (
        <Text size="sm">
          {event.result === 'allow'
            ? 'Allowed'
            : `Denied${event.deny_message ? `: ${String(event.deny_message)}` : ''}`}
        </Text>
      );
    case 'session.error':
      return <Text size="sm">{String(event.error?.message ?? 'error')}</Text>;
    default:
      return null;
  }
}
