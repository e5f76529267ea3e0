/**
 * Build plugin: sums the gzip size of every JS chunk the landing route loads (the entry,
 * its static imports, and the lazily loaded landing page with its static imports), prints
 * it, and fails the build when it exceeds the budget.
 */
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  facadeModuleId: string | null;
  moduleIds: readonly string[];
}

export function landingBudget(options: { budgetKiB: number }): Plugin {
  return {
    name: 'landing-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const [name, output] of Object.entries(bundle))
        if (output.type === 'chunk') chunks.set(name, output as unknown as ChunkLike);
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const landing = [...chunks.values()].find((chunk) =>
        chunk.moduleIds.some((id) => id.includes('/features/landing/components/LandingPage')),
      );
      const included = new Set<string>();
      const visit = (fileName: string): void => {
        if (included.has(fileName)) return;
        const chunk = chunks.get(fileName);
        if (!chunk) return;
        included.add(fileName);
        for (const next of chunk.imports) visit(next);
      };
      visit(entry.fileName);
      if (landing) visit(landing.fileName);
      let gzipBytes = 0;
      for (const fileName of included) gzipBytes += gzipSync(chunks.get(fileName)?.code ?? '').length;
      const kib = gzipBytes / 1024;
      const files = [...included].join(', ');
      console.log(
        `\n[landing-budget] landing route JS: ${kib.toFixed(1)} KB gzip (budget ${options.budgetKiB} KB) in ${included.size} chunk(s): ${files}\n`,
      );
      if (kib > options.budgetKiB)
        this.error(`landing route JS is ${kib.toFixed(1)} KB gzip, over the ${options.budgetKiB} KB budget`);
    },
  };
}
