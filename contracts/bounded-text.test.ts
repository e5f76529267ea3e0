/**
 * Request strings are bounded before any rule reads them (security finding: a quadratic
 * e-mail pattern, run by zod after `.max(254)` had already failed, let one large request hold
 * the API's event loop for seconds). Checked three ways: zod's behaviour that boundedText relies
 * on, every string schema contracts/ exports (built, walked), and the e-mail pattern itself
 * (the same language as before, now linear). api/hostile-fields.test.ts sends the values.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { amount, boundedText, email, EMAIL_PATTERN } from './fields.ts';

/** About 1 MiB, the API's body limit. */
const HUGE = 1024 * 1024;

/** Values no field should read past its bound. */
const HOSTILE: Record<string, string> = {
  'a@ then dots then @': `a@${'.'.repeat(HUGE)}@`,
  'at signs': '@'.repeat(HUGE),
  'a@ repeated': 'a@'.repeat(HUGE / 2),
  digits: '9'.repeat(HUGE),
  Devanagari: 'नमस्ते'.repeat(HUGE / 6),
};

describe('boundedText: what zod does with the aborting bound', () => {
  it('runs no later check, refinement or transform once the bound has failed', () => {
    let ran = 0;
    const schema = boundedText({ max: 5, tooLong: 'too long', trim: true })
      .regex(/^a+$/, 'pattern')
      .refine(() => (ran += 1) > 0, 'refined')
      .superRefine(() => void (ran += 1))
      .transform((value) => ((ran += 1), value));
    const result = schema.safeParse('  aaaaaa  ');
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['too long']);
    expect(ran).toBe(0);
    // Within the bound everything runs (after the trim: the bound is on the trimmed value).
    expect(schema.parse('  aaaaa  ')).toBe('aaaaa');
    expect(ran).toBe(3);
  });

  it("keeps zod's own messages when none is given", () => {
    expect(boundedText({ max: 3 }).safeParse('abcd').error?.issues[0]?.message).toBe(
      'Too big: expected string to have <=3 characters',
    );
    expect(boundedText({ max: 3, required: 'Needed' }).safeParse(undefined).error?.issues[0]?.message).toBe('Needed');
  });

  it('an e-mail over the bound is refused with the invalid message, the pattern never reached', () => {
    const rule = email({ required: 'Email is required', invalid: 'Email is invalid' });
    for (const [shape, value] of Object.entries(HOSTILE)) {
      const result = rule.safeParse(value);
      expect(
        result.error?.issues.map((issue) => issue.message),
        shape,
      ).toEqual(['Email is invalid']);
    }
    expect(rule.parse(`  ${'a'.repeat(64)}@Example.COM `)).toBe(`${'a'.repeat(64)}@example.com`);
  });

  it('an amount given as long text is refused before its pattern', () => {
    const rule = amount({ required: 'Amount is required', invalid: 'Please enter a valid amount' });
    for (const value of [...Object.values(HOSTILE), '1'.repeat(HUGE), `1,${'00,'.repeat(HUGE / 3)}000`])
      expect(rule.safeParse(value).error?.issues[0]?.message).toBe('Please enter a valid amount');
    expect(rule.parse(' 1,00,000.50 ')).toBe(10_000_050n);
  });
});

// ---- every exported schema of contracts/ -------------------------------------------------

type Def = {
  type: string;
  format?: string;
  checks?: { _zod: { def: { check: string; abort?: boolean } } }[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  getter?: () => z.ZodType;
};

interface FoundString {
  where: string;
  schema: z.ZodString;
  /** It feeds a transform or another schema (a pipe's input). */
  piped: boolean;
}

/** Every z.string() inside `schema`, with where it sits. */
function stringsIn(schema: z.ZodType, where: string, seen = new Set<unknown>(), piped = false): FoundString[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const inner = (child: z.ZodType | null | undefined, name: string, childPiped = false): FoundString[] =>
    child ? stringsIn(child, `${where}${name}`, seen, childPiped) : [];
  switch (def.type) {
    case 'string':
      return [{ where, schema: schema as z.ZodString, piped }];
    case 'object':
      return Object.entries((schema as z.ZodObject).shape).flatMap(([key, child]) =>
        inner(child as z.ZodType, `.${key}`),
      );
    case 'pipe':
      return [...inner(def.in, ' (piped)', true), ...inner(def.out, ' (pipe output)')];
    case 'union':
      return (def.options ?? []).flatMap((option, index) => inner(option, `|${index}`));
    case 'intersection':
      return [...inner(def.left, '&left'), ...inner(def.right, '&right')];
    case 'array':
      return inner(def.element, '[]');
    case 'record':
      return [...inner(def.keyType, '{key}'), ...inner(def.valueType, '{value}')];
    case 'tuple':
      return [...(def.items ?? []).flatMap((item, index) => inner(item, `[${index}]`)), ...inner(def.rest, '[...]')];
    case 'lazy':
      return inner(def.getter?.(), '');
    default:
      return def.innerType ? inner(def.innerType, '', piped) : [];
  }
}

/**
 * A string that carries any rule (a check, a refinement, an overwrite) or feeds a transform
 * must first pass an aborting max length: before it, only overwrites (trim, case), which are
 * linear. A string without any rule (a reply field, a documented header) only describes.
 */
function unboundedRule(found: FoundString): string | undefined {
  const def = (found.schema as unknown as { _zod: { def: Def } })._zod.def;
  // z.email(), z.stringFormat(...): the format is checked before any chained check.
  if (def.format) return `${found.where}: its format (${def.format}) is checked before any bound`;
  const checks = def.checks ?? [];
  if (checks.length === 0 && !found.piped) return undefined;
  const first = checks.find((check) => check._zod.def.check !== 'overwrite');
  if (first?._zod.def.check === 'max_length' && first._zod.def.abort === true) return undefined;
  return `${found.where}: its first rule is ${first?._zod.def.check ?? 'none'}, not an aborting max length`;
}

const here = fileURLToPath(new URL('.', import.meta.url));
const modules = await Promise.all(
  readdirSync(here)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map(async (file) => {
      const url = pathToFileURL(`${here}${file}`).href;
      return [file, (await import(/* @vite-ignore */ url)) as Record<string, unknown>] as const;
    }),
);

function exportedSchemas(): { name: string; schema: z.ZodType }[] {
  return modules.flatMap(([file, exports]) =>
    Object.entries(exports)
      .filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)
      .map(([name, schema]) => ({ name: `${file}:${name}`, schema })),
  );
}

describe('every string schema contracts/ exports', () => {
  const all = exportedSchemas().flatMap(({ name, schema }) => stringsIn(schema, name));

  it('is found (the walk reaches the request schemas)', () => {
    const where = all.map((found) => found.where);
    for (const field of [
      'users.ts:loginSchema.email (piped)',
      'users.ts:registerPayloadSchema.contactNo',
      'transactions.ts:depositSchema|1.upiDetails.upiId',
      'admin.ts:statementQuerySchema.type (piped)',
      'statements.ts:statementPeriodSchema.from',
    ])
      expect(where).toContain(field);
  });

  it('starts with an aborting length bound before any rule reads it', () => {
    expect(all.map(unboundedRule).filter(Boolean)).toEqual([]);
  });

  it('refuses each ~1 MiB hostile value with one issue (nothing after the bound ran)', () => {
    for (const found of all.filter((candidate) => unboundedRule(candidate) === undefined)) {
      const checks = (found.schema as unknown as { _zod: { def: Def } })._zod.def.checks ?? [];
      if (checks.length === 0) continue;
      for (const [shape, value] of Object.entries(HOSTILE)) {
        const result = found.schema.safeParse(value);
        expect(result.error?.issues, `${found.where} (${shape})`).toHaveLength(1);
        expect(result.error?.issues[0]?.code, `${found.where} (${shape})`).toBe('too_big');
      }
    }
  });

  it('the check itself catches a rule before the bound', () => {
    const bad = z.object({ email: z.string().regex(/x/).max(5) });
    expect(stringsIn(bad, 'bad').map(unboundedRule)).toEqual([
      'bad.email: its first rule is string_format, not an aborting max length',
    ]);
    const transformed = z.object({ name: z.string().transform((value) => value.trim()) });
    expect(stringsIn(transformed, 'transformed').map(unboundedRule)).toEqual([
      'transformed.name (piped): its first rule is none, not an aborting max length',
    ]);
    const formatted = z.object({ to: z.email().max(254, { abort: true }) });
    expect(stringsIn(formatted, 'formatted').map(unboundedRule)).toEqual([
      'formatted.to: its format (email) is checked before any bound',
    ]);
  });
});

// ---- the e-mail pattern ---------------------------------------------------------------

/** The pattern before the fix: quadratic on `a@` + dots + `@`. Only ever run on short strings here. */
const OLD_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/; // eslint-disable-line regexp/no-super-linear-backtracking

describe('EMAIL_PATTERN', () => {
  it('accepts and refuses exactly what the old pattern did (every string of up to 8 of a . @ space)', () => {
    const alphabet = ['a', '.', '@', ' '];
    const differences: string[] = [];
    let strings = [''];
    for (let length = 0; length <= 8; length++) {
      for (const text of strings)
        if (EMAIL_PATTERN.test(text) !== OLD_EMAIL_PATTERN.test(text)) differences.push(JSON.stringify(text));
      strings = strings.flatMap((text) => alphabet.map((next) => text + next));
    }
    expect(differences).toEqual([]);
  });

  it.each(['a@b.co', 'first.last@sub.example.co.in', 'x+tag@example.com', 'A@B.C', 'a@b..co', 'a@.b.c'])(
    'accepts %s',
    (text) => {
      expect(EMAIL_PATTERN.test(text)).toBe(true);
    },
  );

  it.each(['', 'a', 'a@b', 'a@b.', 'a@.co', '@b.co', 'a b@c.co', 'a@b@c.co', 'a@b.c o', 'not-an-email', 'x@y'])(
    'refuses %j',
    (text) => {
      expect(EMAIL_PATTERN.test(text)).toBe(false);
    },
  );

  it('runs over ~1 MiB hostile values (linear: no timing asserted, a quadratic pattern would not finish)', () => {
    for (const value of [...Object.values(HOSTILE), `a@b${'.c'.repeat(HUGE / 2)}@`, `a@${'x.'.repeat(HUGE / 2)} `])
      expect(EMAIL_PATTERN.test(value)).toBe(false);
  });
});
