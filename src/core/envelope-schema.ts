import { lazy, z } from './schema.ts';

/** Parts of every envelope, shared by the data-type answers and the service answers (services/schemas.ts). */

export const count = (description: string) => z.number().int().min(0).meta({ description });
export const tier = () => z.enum(['A', 'B', 'C']).meta({ description: 'Licence tier: A open, B share-alike (e.g. ODbL), C other terms' });

export const Pagination = lazy(() =>
  z
    .strictObject({
      channel: z.enum(['rest', 'gpt-actions', 'mcp']).meta({ description: 'Client channel the page size defaults follow' }),
      applied: z.boolean().meta({ description: 'Whether the list was cut to a page' }),
      page: z.number().int().min(1).nullable().meta({ description: 'Page number (null when offset was given or no page applied)' }),
      limit: z.number().int().min(1).nullable().meta({ description: 'Page size (null: the full list)' }),
      offset: count('Items skipped'),
      total: count('Items in the whole list'),
      returned: count('Items in this answer'),
      max_limit: count('Largest page size'),
      forced_all: z.boolean().meta({ description: 'The full list was asked for (limit=all or all=1)' }),
      clamped: z.boolean().meta({ description: 'limit was above max_limit and was clamped' }),
    })
    .meta({ description: 'Paging of a list answer' }),
);

export const Attribution = lazy(() =>
  z
    .strictObject({
      source: z.string().meta({ description: 'Source name' }),
      text: z.string().meta({ description: 'Attribution text to show' }),
      license: z.string().meta({ description: 'Licence identifier' }),
      license_url: z.string().meta({ description: 'Licence text' }),
      tier: tier(),
      modified: z.boolean().meta({ description: 'Whether the values were changed (converted, renamed, selected)' }),
      modification_notice: z.string().optional().meta({ description: 'What was changed, where modified' }),
    })
    .meta({ description: 'Source, licence and attribution of an answer' }),
);
