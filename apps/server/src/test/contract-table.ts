import { type ActionDef, isPlannedAction, type ServiceDef, services } from '@portal/contract';
import * as z from 'zod/mini';

/** An action the server answers, as the contract's table lists it: what the generated tests walk. */
export interface MountedAction {
  service: ServiceDef;
  name: string;
  def: ActionDef;
  /** `/api/robots UPDATEROBOT` */
  label: string;
}

/** Every action of every live service that is not planned: the server mounts exactly these. */
export function mountedActions(): MountedAction[] {
  return Object.values(services as Record<string, ServiceDef>)
    .filter((s) => s.status === 'live')
    .flatMap((service) =>
      Object.entries(service.actions as Record<string, ActionDef>)
        .filter(([, def]) => !isPlannedAction(def))
        .map(([name, def]) => ({ service, name, def, label: `${service.path} ${name}` })),
    );
}

/** The JSON Schema of a request (its input side), as the generators read it. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

export function requestSchema(def: ActionDef): JsonSchema {
  return z.toJSONSchema(def.request, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Every field path of a request (`user.email`, `robot_licenses[].robot_id`), leaves only. */
export function fieldPaths(schema: JsonSchema, prefix = ''): string[] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.flatMap((a) => fieldPaths(a, prefix)))];
  if (schema.type === 'array' && schema.items) return fieldPaths(schema.items, `${prefix}[]`);
  if (schema.properties)
    return Object.entries(schema.properties).flatMap(([name, prop]) =>
      fieldPaths(prop, prefix ? `${prefix}.${name}` : name),
    );
  return prefix ? [prefix] : [];
}

/**
 * The fields of a request that name another object: an id or an email. Tokens are credentials, not
 * names (a caller cannot hold another's), and `action` names the operation.
 */
export function targetFields(def: ActionDef): string[] {
  return fieldPaths(requestSchema(def)).filter((path) => {
    const leaf = path.split('.').at(-1)?.replace('[]', '') ?? '';
    return /(^|_)(id|email)$/.test(leaf) || leaf === 'pair_code' || leaf === 'robot_licenses';
  });
}
