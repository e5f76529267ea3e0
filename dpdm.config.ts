/**
 * No import cycles between our own modules, type-only imports included (`npm run lint` runs
 * dpdm with this file). `transform` stays off: it would strip types first, and a cycle through
 * types still ties two modules into one - neither can be read, moved or tested without the
 * other, and a type both sides need has no owner. Dynamic `import()` counts as well.
 */
export default {
  files: ['*.{ts,tsx,js}', '!(node_modules|var|test-output)/**/*.{ts,tsx,js}'],
  exclude: '(^|/)(node_modules|web/dist|bench/results)/',
  exitCode: 'circular:1',
  progress: false,
  tree: false,
  warning: false,
};
