import { Alert, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { EmptyState } from '../../components/states';
import { EventItem } from './event-item';
import { pendingApprovals } from './session-insights';
import type { SessionFeed } from './use-session-events';

/** The events as a conversation, the decisions waiting, and (for editors) the composer and interrupt. */
export function Conversation(props: {
  sessionId: string;
  feed: SessionFeed;
  status: string;
  focused: string | null;
}) {
  const { sessionId, feed, status, focused } = props;
  const api = useApi();
  const { canEdit } = useAuth();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = async (events: unknown[]) => {
    setError(null);
    try {
      await api.call('POST', `/v1/sessions/${sessionId}/events`, { events });
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    await send([{ type: 'user.message', content: [{ type: 'text', text }] }]);
    setText('');
  };
  const pending = pendingApprovals(feed.events);
  const drafts = Object.entries(feed.drafts);
  return (
    <Stack>
      <Stack gap="xs" aria-live="polite" aria-label="Conversation" data-streamed-deltas={feed.deltas}>
        {feed.events.length === 0 ? (
          <EmptyState title="No events yet">Send a message to start.</EmptyState>
        ) : null}
        {feed.events.map((event) => (
          <EventItem key={event.seq} event={event} highlighted={event.id === focused} />
        ))}
        {drafts.map(([id, draft]) => (
          <Paper key={id} withBorder p="sm" aria-label="Agent (writing)">
            <Text size="sm" fw={600}>
              Agent
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{draft}</Text>
          </Paper>
        ))}
      </Stack>
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      {pending.map((tool) => (
        <Paper
          key={tool.id}
          withBorder
          p="sm"
          bg="orange.0"
          role="group"
          aria-label={`Approve ${String(tool.name)}`}
        >
          <Text size="sm" mb="xs">
            <b>{String(tool.name)}</b> waits for a decision.
          </Text>
          {canEdit ? (
            <Group>
              <Button
                color="teal.9"
                onClick={() =>
                  void send([{ type: 'user.tool_confirmation', tool_use_id: tool.id, result: 'allow' }])
                }
              >
                Approve
              </Button>
              <Button
                color="red.9"
                variant="outline"
                onClick={() =>
                  void send([
                    {
                      type: 'user.tool_confirmation',
                      tool_use_id: tool.id,
                      result: 'deny',
                      deny_message: 'Denied in the console',
                    },
                  ])
                }
              >
                Deny
              </Button>
            </Group>
          ) : (
            <Text size="sm">Someone who can edit decides.</Text>
          )}
        </Paper>
      ))}
      {canEdit ? (
        <form onSubmit={(e) => void submit(e)}>
          <Stack gap="xs">
            <Textarea
              label="Message"
              autosize
              minRows={2}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit(e);
              }}
            />
            <Group>
              <Button type="submit">Send</Button>
              <Button
                variant="default"
                disabled={status !== 'running'}
                onClick={() => void send([{ type: 'user.interrupt' }])}
              >
                Interrupt
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}
