import { Alert, Button, Group, JsonInput, Select, Stack, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useApi } from '../../api/use-api';
import { useAuth } from '../../auth/auth-context';
import { ErrorState, Loading } from '../../components/states';
import { agentBodyOf, EMPTY_AGENT, formOfAgent, type AgentBody, type AgentFormValues } from './agent-form';
import { ToolPolicies } from './tool-policies';

type TextField = Exclude<keyof AgentFormValues, 'tools' | 'loadedConfigs'>;

/** Create an agent, or edit one (each save is a new version). */
export function AgentEditorPage() {
  const { id } = useParams();
  const api = useApi();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const { canEdit } = useAuth();
  const existing = useQuery({
    queryKey: ['agent', id],
    queryFn: () => api.call<AgentBody>('GET', `/v1/agents/${id}`),
    enabled: Boolean(id),
  });
  const [values, setValues] = useState<AgentFormValues>(EMPTY_AGENT);
  useEffect(() => {
    if (existing.data) setValues(formOfAgent(existing.data));
  }, [existing.data]);
  const save = useMutation({
    mutationFn: async () => {
      const body = agentBodyOf(values);
      return id
        ? api.call<{ id: string }>('POST', `/v1/agents/${id}`, { ...body, version: existing.data?.version })
        : api.call<{ id: string }>('POST', '/v1/agents', body);
    },
    onSuccess: async (agent) => {
      await queries.invalidateQueries({ queryKey: ['agents'] });
      await queries.invalidateQueries({ queryKey: ['agent', agent.id] });
      await navigate(`/agents/${agent.id}`);
    },
  });
  if (!canEdit) return <ErrorState error={new Error('Your role can read agents but not change them.')} />;
  if (id && existing.isPending) return <Loading />;
  if (existing.error) return <ErrorState error={existing.error} />;
  const set = (field: TextField) => (value: string | null) =>
    setValues((v) => ({ ...v, [field]: value ?? '' }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-labelledby="agent-form-title">
      <Stack maw={760}>
        <Title order={2} id="agent-form-title">
          {id ? `Edit ${existing.data?.name ?? 'agent'}` : 'New agent'}
        </Title>
        {save.error ? (
          <Alert color="red" role="alert" title="Not saved">
            {save.error.message}
          </Alert>
        ) : null}
        <TextInput
          label="Name"
          required
          value={values.name}
          onChange={(e) => set('name')(e.currentTarget.value)}
        />
        <TextInput
          label="Model"
          description="provider/model, a claude-* id, or scripted"
          required
          value={values.model}
          onChange={(e) => set('model')(e.currentTarget.value)}
        />
        <Textarea
          label="System prompt"
          autosize
          minRows={4}
          value={values.system}
          onChange={(e) => set('system')(e.currentTarget.value)}
        />
        <Select
          label="Default tool permission policy"
          description="For every built-in tool left at “Toolset default” below"
          data={[
            { value: 'always_allow', label: 'Always allow' },
            { value: 'always_ask', label: 'Always ask (approve each call)' },
          ]}
          value={values.permission}
          onChange={set('permission')}
          allowDeselect={false}
        />
        <ToolPolicies tools={values.tools} onChange={(tools) => setValues((v) => ({ ...v, tools }))} />
        <JsonInput
          label="Other tools"
          description="MCP toolsets and custom tools, as the API takes them"
          autosize
          minRows={2}
          value={values.otherTools}
          onChange={set('otherTools')}
        />
        <JsonInput
          label="MCP servers"
          autosize
          minRows={2}
          value={values.mcpServers}
          onChange={set('mcpServers')}
        />
        <JsonInput label="Skills" autosize minRows={2} value={values.skills} onChange={set('skills')} />
        <JsonInput
          label="Sub-agents (multiagent)"
          description='e.g. {"type":"coordinator","agents":["agent_…"]}'
          autosize
          minRows={2}
          value={values.subAgents}
          onChange={set('subAgents')}
        />
        <JsonInput
          label="Model script (scripted model only)"
          autosize
          minRows={2}
          value={values.script}
          onChange={set('script')}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            {id ? 'Save new version' : 'Create agent'}
          </Button>
          <Button variant="default" onClick={() => void navigate(id ? `/agents/${id}` : '/agents')}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
