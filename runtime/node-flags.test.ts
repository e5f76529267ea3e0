/**
 * The Node flags are stated once (runtime/node-flags.ts); package.json, the Dockerfile and
 * docker-compose.yml cannot import them, so this checks that each way of starting the API and
 * the worker runs exactly those flags (a deployment that lost one would change its memory
 * behaviour unseen).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCKERFILE, imageEnvironment, readComposeFile } from '../test/compose.ts';
import { ROOT } from '../test/processes.ts';
import { ENTRY_NODE_FLAGS } from './node-flags.ts';

type Entry = keyof typeof ENTRY_NODE_FLAGS;
const ENTRIES = Object.keys(ENTRY_NODE_FLAGS) as Entry[];

/** `node <flags> <entry> <arguments>`: the entry and the flags before it, or undefined for another command. */
function started(command: readonly string[]): { entry: Entry; flags: string[] } | undefined {
  const index = command.findIndex((word): word is Entry => (ENTRIES as string[]).includes(word));
  if (index < 0 || command[0] !== 'node') return undefined;
  return { entry: command[index] as Entry, flags: command.slice(1, index) };
}

/** Flags as a set: NODE_OPTIONS and the command line both count, in any order. */
function sorted(flags: readonly string[]): string[] {
  return [...flags].sort();
}

function nodeOptions(value: string | undefined): string[] {
  return (value ?? '').split(/\s+/).filter((flag) => flag !== '');
}

describe('the Node flags of every start agree with runtime/node-flags.ts', () => {
  it('npm start and npm run worker', () => {
    const scripts = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> })
      .scripts;
    const seen = new Set<Entry>();
    for (const script of Object.values(scripts)) {
      const start = started(script.split(/\s+/));
      if (!start) continue;
      seen.add(start.entry);
      expect(sorted(start.flags), script).toEqual(sorted(ENTRY_NODE_FLAGS[start.entry]));
    }
    expect([...seen].sort()).toEqual([...ENTRIES].sort());
  });

  it("the image's NODE_OPTIONS and CMD", () => {
    const cmdLine = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(DOCKERFILE, 'utf8'))?.[1];
    const start = started(JSON.parse(cmdLine ?? '[]') as string[]);
    expect(start?.entry).toBe('bin/server.ts');
    const imageFlags = nodeOptions(imageEnvironment()['NODE_OPTIONS']);
    expect(sorted([...imageFlags, ...(start?.flags ?? [])])).toEqual(sorted(ENTRY_NODE_FLAGS['bin/server.ts']));
  });

  it("every compose service that runs the API or the worker (the image's NODE_OPTIONS, or the service's own)", () => {
    const imageFlags = imageEnvironment()['NODE_OPTIONS'];
    const seen = new Set<Entry>();
    for (const [name, definition] of Object.entries(readComposeFile().services)) {
      const start = started(definition.command ?? []);
      if (!start) continue;
      seen.add(start.entry);
      const own = definition.environment?.['NODE_OPTIONS'];
      const flags = [...nodeOptions(own === undefined || own === null ? imageFlags : String(own)), ...start.flags];
      expect(sorted(flags), name).toEqual(sorted(ENTRY_NODE_FLAGS[start.entry]));
    }
    expect([...seen].sort()).toEqual([...ENTRIES].sort());
  });
});
