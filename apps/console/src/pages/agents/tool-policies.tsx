import { Fieldset, NativeSelect, SimpleGrid } from '@mantine/core';
import { BUILTIN_TOOLS, type BuiltinTool, type ToolChoice } from './agent-form';

const CHOICES: { value: ToolChoice; label: string }[] = [
  { value: 'default', label: 'Toolset default' },
  { value: 'always_allow', label: 'Always allow' },
  { value: 'always_ask', label: 'Always ask' },
  { value: 'disabled', label: 'Off' },
];

/** One permission choice per built-in tool; native selects keep each one labelled and keyboard-reachable. */
export function ToolPolicies(props: {
  tools: Record<BuiltinTool, ToolChoice>;
  onChange: (tools: Record<BuiltinTool, ToolChoice>) => void;
}) {
  return (
    <Fieldset legend="Built-in tools">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {BUILTIN_TOOLS.map((tool) => (
          <NativeSelect
            key={tool}
            label={`${tool} permission`}
            data={CHOICES}
            value={props.tools[tool]}
            onChange={(e) => props.onChange({ ...props.tools, [tool]: e.currentTarget.value as ToolChoice })}
          />
        ))}
      </SimpleGrid>
    </Fieldset>
  );
}
