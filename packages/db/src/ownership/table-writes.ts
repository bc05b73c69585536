import { TABLE_OWNERS, type ModelName, type OwningService } from './table-owners.js';

/** One write a source file makes to a table, found by reading its text. */
export interface TableWrite {
  line: number;
  table: string;
  /** The code that writes, e.g. `tx.session.updateMany(` or `UPDATE sessions`. */
  statement: string;
}

export interface ForeignWrite extends TableWrite {
  file: string;
  /** `null`: a table no service owns, or a workspace table the scan cannot name. */
  owner: OwningService | null;
}

/** Model name → table name, from the Prisma schema's `model X { … @@map("x") }` blocks. */
export function schemaTables(schema: string): Map<ModelName, string> {
  const tables = new Map<ModelName, string>();
  for (const block of schema.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const [, model, body] = block;
    const mapped = /@@map\("([^"]+)"\)/.exec(body!)?.[1];
    tables.set(model as ModelName, mapped ?? model!);
  }
  return tables;
}

const DELEGATE_WRITES =
  'create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany';
const SQL_WRITE = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * The table writes in `source`: Prisma delegate writes (`db.session.create(`, `tx.workItem.updateMany(`,
 * also split over lines) and raw SQL (`INSERT INTO`, `UPDATE`, `DELETE FROM`, `TRUNCATE`) naming a known
 * table. Comment lines are skipped, so prose that says "update sessions" is not a write.
 */
export function findTableWrites(source: string, tables: Map<ModelName, string>): TableWrite[] {
  const text = blankComments(source);
  const byDelegate = new Map([...tables].map(([model, table]) => [delegateName(model), table]));
  const byTable = new Set(tables.values());
  const writes: TableWrite[] = [];
  const delegates = new RegExp(
    `\\.\\s*(${[...byDelegate.keys()].join('|')})\\s*\\.\\s*(${DELEGATE_WRITES})\\s*[<(]`,
    'g',
  );
  for (const match of text.matchAll(delegates)) {
    writes.push({
      line: lineOf(text, match.index),
      table: byDelegate.get(match[1]!)!,
      statement: `${match[1]}.${match[2]}`,
    });
  }
  for (const match of text.matchAll(SQL_WRITE)) {
    const table = match[2]!.toLowerCase();
    if (!byTable.has(table)) continue;
    writes.push({
      line: lineOf(text, match.index),
      table,
      statement: `${match[1]!.toUpperCase().replace(/\s+/g, ' ')} ${table}`,
    });
  }
  writes.push(...findWorkspaceWrites(text));
  return writes.sort((a, b) => a.line - b.line);
}

const SQL_TABLE = /\b(FROM|JOIN|INTO|UPDATE|TRUNCATE(?:\s+TABLE)?)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const STRING_LITERAL = /(['"`])((?:\\[\s\S]|(?!\1)[\s\S])*?)\1/g;
const SQL_STATEMENT = /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE|TRUNCATE)\b/i;

/**
 * Every known table `source` names in raw SQL, reads included (`select … from files`, `join skills`,
 * `insert into`, `update`, `truncate`): string literals that start as an SQL statement. Comments are
 * skipped, and so is prose in strings ("re-read from files"). For the shared packages, which own no
 * table: what they read, they must read through the service that owns it.
 */
export function findRawSqlTables(source: string, tables: Map<ModelName, string>): TableWrite[] {
  const text = blankComments(source);
  const byTable = new Set(tables.values());
  const found: TableWrite[] = [];
  for (const literal of text.matchAll(STRING_LITERAL)) {
    const body = literal[2]!;
    if (!SQL_STATEMENT.test(body)) continue;
    const start = literal.index + 1;
    for (const match of body.matchAll(SQL_TABLE)) {
      const table = match[2]!.toLowerCase();
      if (!byTable.has(table)) continue;
      found.push({
        line: lineOf(text, start + match.index),
        table,
        statement: `${match[1]!.toUpperCase().replace(/\s+/g, ' ')} ${table}`,
      });
    }
  }
  return found;
}

/** What a workspace the scan cannot name is reported as writing. */
export const UNNAMED_WORKSPACE_TABLE = '(unnamed workspace table)';

/**
 * The workspace tables `source` opens for writing: each `new PostgresWorkspaceFs({ … })` (also under an
 * import alias) writes the table its `table: '…'` names, unless it says `readOnly: true`. Its SQL is built
 * inside packages/workspace, so the raw SQL scan does not see these writes. Options the scan cannot read
 * (not an object literal, a spread that may override what it says, no literal table) are reported as
 * writing UNNAMED_WORKSPACE_TABLE rather than trusted. `text` has its comments blanked.
 */
function findWorkspaceWrites(text: string): TableWrite[] {
  const names = ['PostgresWorkspaceFs'];
  for (const alias of text.matchAll(/\bPostgresWorkspaceFs\s+as\s+(\w+)/g)) names.push(alias[1]!);
  const writes: TableWrite[] = [];
  for (const match of text.matchAll(new RegExp(`\\bnew\\s+(${names.join('|')})\\s*\\(`, 'g'))) {
    const options = balancedArgument(text, match.index + match[0].length);
    const readable = options.startsWith('{') && !options.includes('...');
    if (readable && /\breadOnly\s*:\s*true\b/.test(options)) continue;
    const named = readable ? /\btable\s*:\s*(['"])([a-z_][a-z0-9_]*)\1/.exec(options) : null;
    const table = named?.[2] ?? UNNAMED_WORKSPACE_TABLE;
    writes.push({ line: lineOf(text, match.index), table, statement: `PostgresWorkspaceFs on ${table}` });
  }
  return writes;
}

/** The writes in `files` (path → source) to tables `service` does not own. */
export function foreignWrites(
  service: OwningService,
  files: Map<string, string>,
  tables: Map<ModelName, string>,
): ForeignWrite[] {
  const ownerOf = new Map([...tables].map(([model, table]) => [table, TABLE_OWNERS[model]]));
  const found: ForeignWrite[] = [];
  for (const [file, source] of files) {
    for (const write of findTableWrites(source, tables)) {
      const owner = ownerOf.get(write.table) ?? null;
      if (owner !== service) found.push({ ...write, file, owner });
    }
  }
  return found;
}

function delegateName(model: string): string {
  return model.charAt(0).toLowerCase() + model.slice(1);
}

/** The text of a call's argument list from just after its `(` to its matching `)`, trimmed. */
function balancedArgument(text: string, start: number): string {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') depth--;
    if (depth === 0) return text.slice(start, i).trim();
  }
  return text.slice(start).trim();
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Replaces `//` and `/* … *\/` comments with spaces, keeping every newline (and so line numbers). */
function blankComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(
      /(^|[^:'"`\\])\/\/[^\n]*/g,
      (comment, lead: string) => lead + ' '.repeat(comment.length - lead.length),
    );
}
