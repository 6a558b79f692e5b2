import { cleanedInput, ProblemError, quotedInput } from '../core/problem.ts';
import type { JsonSchema, ObjectSchema } from './schema.ts';

/**
 * Checks tool arguments against the tool's input schema: names and JSON types only. Enums,
 * patterns and minimums are left to the services and the pipeline, which answer with the same
 * problem code and hint as REST; a model corrects its call from those.
 */
function fits(value: unknown, schema: JsonSchema): boolean {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).some((s) => fits(value, s));
  if ('const' in schema) return value === schema.const;
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (types.length === 0) return true;
  return types.some((t) => {
    switch (t) {
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value) && (!schema.items || value.every((v) => fits(v, schema.items as JsonSchema)));
      case 'null':
        return value === null;
      default:
        return typeof value === 'object' && value !== null && !Array.isArray(value);
    }
  });
}

function expected(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(expected).join(' or ');
  if ('const' in schema) return JSON.stringify(schema.const);
  return Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any value');
}

function hintOf(name: string, prop: JsonSchema): string {
  if (Array.isArray(prop.enum)) return `${name} must be one of: ${prop.enum.join(', ')}.`;
  return `${name}: ${String(prop.description ?? expected(prop)).split('\n')[0]}`;
}

export function checkArgs(tool: string, schema: ObjectSchema, args: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(schema.properties);
  const unknown = Object.keys(args).filter((k) => !names.includes(k));
  if (unknown.length) {
    throw new ProblemError(
      'invalid_request',
      `${tool} has no argument${unknown.map((k) => quotedInput(k) || ' (unnamed)').join(',')}`,
      `${tool} takes: ${names.join(', ')}.`,
      {
        parameter: cleanedInput(unknown[0]),
      },
    );
  }
  for (const [name, value] of Object.entries(args)) {
    const prop = schema.properties[name]!;
    if (value !== undefined && value !== null && !fits(value, prop)) {
      throw new ProblemError('invalid_parameter', `"${name}" must be ${expected(prop)}`, hintOf(name, prop), {
        parameter: name,
      });
    }
  }
  const missing = (schema.required ?? []).filter((k) => args[k] === undefined || args[k] === null || args[k] === '');
  if (missing.length) {
    const prop = schema.properties[missing[0]!]!;
    throw new ProblemError('invalid_request', `missing required argument "${missing[0]}"`, hintOf(missing[0]!, prop), {
      parameter: missing[0],
    });
  }
  // null means "not given" to a model; the services read absent members.
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
}
