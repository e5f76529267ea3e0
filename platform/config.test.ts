/**
 * The configuration's shape: every setting in exactly one group, no test hook among them, and
 * README.md's settings table in step with the schema - every setting documented with its
 * default, no documented variable the schema does not read - so the two cannot drift; and
 * docker-compose.yml passing settings through without writing their defaults again.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { COMPOSE_FILE, variableReferences } from '../test/compose.ts';
import { CONFIG_GROUPS, configSchema, loadConfig } from './config.ts';

const README = new URL('../README.md', import.meta.url);

interface DocumentedSetting {
  /** The row's default cell, or this variable's part of it when the row lists several. */
  documentedDefault: string;
  row: string;
}

/** The rows of README's "Configuration" table, by variable. */
function readmeSettings(): Map<string, DocumentedSetting> {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## Configuration\n'));
  const header = section.indexOf('| variable | default | meaning |');
  const rows = section
    .slice(header)
    .split('\n')
    .slice(2)
    .filter((line, index, lines) => lines.slice(0, index + 1).every((earlier) => earlier.startsWith('|')));
  const settings = new Map<string, DocumentedSetting>();
  for (const row of rows) {
    const [names = '', defaults = ''] = row.split(/(?<!\\)\|/).slice(1, 3);
    const variables = [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? '');
    // `A` / `B` | `1` / `2`, or `A`, `B` | 1, 2: one default each when the counts agree.
    const parts = defaults.split(/ \/ |, /);
    variables.forEach((variable, index) => {
      const documentedDefault = parts.length === variables.length ? (parts[index] ?? '') : defaults;
      settings.set(variable, { documentedDefault: documentedDefault.trim(), row });
    });
  }
  return settings;
}

/** Each setting's default as the environment would spell it (before any transform). */
function schemaDefaults(): Map<string, unknown> {
  const jsonSchema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, { default?: unknown }>;
  };
  return new Map(Object.entries(jsonSchema.properties).map(([name, property]) => [name, property.default]));
}

/** `3000` in "`3000` / `0.0.0.0`": the value as a whole word of the cell, not inside a longer one. */
function states(cell: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.@])${escaped}($|[^\\w.@])`).test(cell.replaceAll('`', ''));
}

describe('configuration groups', () => {
  it('puts every setting of the schema in exactly one group', () => {
    const grouped = Object.values(CONFIG_GROUPS).flatMap((group) => Object.keys(group.shape));
    expect(grouped.length, 'a setting in two groups (the later would silently win)').toBe(new Set(grouped).size);
    const ungrouped = Object.keys(configSchema.shape).filter((name) => !grouped.includes(name));
    expect(ungrouped, 'settings outside platform/config-groups.ts').toEqual([]);
  });

  it('regression: the Stripe address the tests point at their fake is no setting, so production cannot move card payments', () => {
    const config = loadConfig({
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_API_HOST: 'attacker.example',
      STRIPE_API_PORT: '80',
      STRIPE_API_PROTOCOL: 'http',
    });
    for (const hook of ['STRIPE_API_HOST', 'STRIPE_API_PORT', 'STRIPE_API_PROTOCOL'])
      expect(config).not.toHaveProperty(hook);
  });
});

describe("README.md's settings table", () => {
  const documented = readmeSettings();
  const defaults = schemaDefaults();

  it('documents every setting of the schema', () => {
    const missing = [...defaults.keys()].filter((name) => !documented.has(name));
    expect(missing).toEqual([]);
  });

  it('documents no variable the schema does not read', () => {
    const unknown = [...documented.keys()].filter((name) => !defaults.has(name));
    expect(unknown).toEqual([]);
  });

  it("states each setting's default as the schema has it", () => {
    const wrong: string[] = [];
    for (const [name, fallback] of defaults) {
      const setting = documented.get(name);
      if (!setting || fallback === undefined) continue;
      // An empty list's default is told in words ("none", "unset: ...").
      const agrees =
        fallback === ''
          ? /\b(none|unset)\b/.test(setting.documentedDefault)
          : states(setting.documentedDefault, String(fallback));
      if (!agrees) wrong.push(`${name}: schema ${JSON.stringify(fallback)}, README "${setting.documentedDefault}"`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  it("passes settings through without restating the schema's defaults (an empty value is unset)", () => {
    const defaults = schemaDefaults();
    const restated = variableReferences(readFileSync(COMPOSE_FILE, 'utf8'))
      .filter(({ name, operator, argument }) => operator === ':-' && argument !== '' && defaults.has(name))
      .filter(({ name, argument }) => argument === String(defaults.get(name)))
      .map(({ name, argument }) => `\${${name}:-${argument}}`);
    expect(restated).toEqual([]);
  });
});
