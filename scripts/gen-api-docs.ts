// Writes docs/api.md from the contract: every service, action, request and response field.
// `--check` fails when the committed file is stale (CI runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import { type ActionDef, ErrorCodes, isPlannedAction, PERMISSIONS, services } from '@portal/contract';
import * as z from 'zod/mini';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: Schema | boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  description?: string;
  default?: unknown;
};

function typeName(s: Schema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' \\| ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(typeName).join(' \\| ');
  if (s.type === 'array') return `${s.items ? typeName(s.items) : 'unknown'}[]`;
  if (s.type === 'object' && !s.properties && s.additionalProperties && typeof s.additionalProperties === 'object')
    return `record of ${typeName(s.additionalProperties)}`;
  const t = Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any');
  return s.format ? `${t} (${s.format})` : t;
}

function constraints(s: Schema): string {
  const parts: string[] = [];
  if (s.minLength !== undefined) parts.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  if (s.description) parts.push(s.description.replace(/\n/g, ' '));
  return parts.join('; ');
}

function rows(s: Schema, prefix = ''): string[] {
  const out: string[] = [];
  const objectOf = (x: Schema): Schema | undefined =>
    x.properties ? x : (x.anyOf ?? x.oneOf)?.find((a) => a.properties);
  const obj = objectOf(s);
  if (!obj?.properties) return out;
  for (const [name, prop] of Object.entries(obj.properties)) {
    const path = prefix ? `${prefix}.${name}` : name;
    const required = obj.required?.includes(name) ? 'yes' : 'no';
    out.push(`| \`${path}\` | ${typeName(prop)} | ${required} | ${constraints(prop)} |`);
    out.push(...rows(prop, path));
    if (prop.type === 'array' && prop.items) out.push(...rows(prop.items, `${path}[]`));
  }
  return out;
}

function table(schema: z.ZodMiniType, io: 'input' | 'output'): string {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
  const body = rows(json);
  if (body.length === 0) return '_no fields_\n';
  return `${['| field | type | required | rules |', '|---|---|---|---|', ...body].join('\n')}\n`;
}

let md = `# API reference

Generated from \`packages/contract\` by \`npm run docs:api\`; do not edit by hand.

Every call is \`POST <service path>\` with a JSON body whose \`action\` field picks the operation, and a
\`x-csrf-token\` header fetched first with \`GET /api/useraction\`. Calls marked **bearer** carry
\`Authorization: Bearer <access token>\`; **body** calls carry the access token as \`token\` in the body;
**refresh** calls are proved by the refresh token they carry; **operator** calls carry an API key in an
\`x-operator-token\` header (a named key, or the server's \`OPERATOR_TOKEN\` as the key "legacy") whose role
(support < finance < admin) has the permission shown beside the call, and no user session. Every answer has an \`error\` object
\`{ Success, Code, Description }\`; failures answer a 4xx/5xx status with \`Success: false\`.

## Error codes

| name | Code | HTTP status |
|---|---|---|
${Object.entries(ErrorCodes)
  .map(([name, e]) => `| ${name} | ${e.code} | ${e.status} |`)
  .join('\n')}

`;

const planned = Object.values(services).filter((s) => s.status === 'planned');
md += `## Services

| service | path | status |
|---|---|---|
${Object.values(services)
  .map((s) => `| ${s.name} | \`${s.path}\` | ${s.status === 'planned' ? '**planned**: not served yet' : 'live'} |`)
  .join('\n')}

${
  planned.length
    ? `Planned services (${planned.map((s) => s.name).join(', ')}) are written in the contract ahead of the open issue
that builds them; the server does not mount them yet and answers 404 on their paths.`
    : 'Every service is live.'
}

`;

for (const service of Object.values(services)) {
  md += `## ${service.name} — \`${service.path}\`${service.status === 'planned' ? ' (planned)' : ''}\n\n`;
  if (service.status === 'planned')
    md +=
      '**Planned**: this service is not served yet; an open issue builds it. The reference below is its contract.\n\n';
  const anchor = (name: string) => `#${service.name.toLowerCase()}-${name.toLowerCase().replace(/[^a-z0-9_-]/g, '')}`;
  md += '| action | auth | summary |\n|---|---|---|\n';
  for (const [name, def] of Object.entries(service.actions as Record<string, ActionDef>))
    md +=
      def.aliasOf === undefined
        ? `| [${name}](${anchor(name)}) | ${def.auth}${def.caller ? ` (${def.caller})` : ''}${def.permission ? `, ${def.permission} (${PERMISSIONS[def.permission]})` : ''} | ${isPlannedAction(def) ? '**planned**: not served yet. ' : ''}${def.summary} |\n`
        : `| ${name} | ${def.auth} | Another name of [${def.aliasOf}](${anchor(def.aliasOf)}), answered the same; callers send ${def.aliasOf} (decision 062). |\n`;
  md += '\n';
  for (const [name, def] of Object.entries(service.actions as Record<string, ActionDef>)) {
    if (def.aliasOf !== undefined) continue;
    const plannedNote =
      isPlannedAction(def) && service.status !== 'planned'
        ? '**Planned**: not served yet (the server answers UNKNOWN_ACTION); an open issue builds it.\n\n'
        : '';
    md += `### ${service.name} ${name}\n\n${plannedNote}${def.summary}\n\nRequest (\`"action": "${name}"\` plus):\n\n${table(def.request, 'input')}\nResponse:\n\n${table(def.response, 'output')}\n`;
  }
}

const target = 'docs/api.md';
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== md) {
    console.error(`${target} is stale: run npm run docs:api and commit it`);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  writeFileSync(target, md);
  console.log(`wrote ${target}`);
}
