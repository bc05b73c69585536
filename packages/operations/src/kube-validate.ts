import { parseAllDocuments } from 'yaml';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  [key: string]: unknown;
}

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/** Every object of a multi-document YAML stream (empty documents dropped). */
export function parseManifests(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null && typeof o === 'object');
}

/**
 * Validates an object against the Kubernetes OpenAPI schema of its apiVersion and kind, through the
 * generated models of `kubernetes-models` (`kubernetes-models/<group>/<version>`). Returns the
 * problems found; a kind it has no schema for is a problem too.
 */
export async function validateKubeObject(object: KubeObject): Promise<string[]> {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : [undefined, object.apiVersion];
  const path = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  let Model: ModelClass;
  try {
    Model = ((await import(path)) as Record<string, ModelClass>)[object.kind]!;
  } catch {
    return [`${object.kind} ${object.metadata.name}: no Kubernetes schema for ${object.apiVersion}`];
  }
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${object.kind} ${object.metadata.name}: ${(error as Error).message}`];
  }
}
