// The layers of src/, bottom first (ARCHITECTURE.md, "Layers"). A module may import its own layer and the ones below
// it, never one above, and no import cycle is allowed: `npm run lint` checks both on every change.
const layers = [
  ['util', '^src/util/'],
  ['api', '^src/api/'],
  ['ssh', '^src/ssh/'],
  ['platform', '^src/(auth/|config\\.ts$|log\\.ts$)'],
  ['store', '^src/store/'],
  ['billing', '^src/(billing|folder)/'],
  ['notify', '^src/notify/'],
  ['accounts', '^src/accounts/'],
  ['views', '^src/views/'],
  ['features', '^src/(features|lm)/'],
  ['commands', '^src/commands/'],
  ['root', '^src/(extension|testApi)\\.ts$'],
];

const upward = layers.slice(0, -1).map(([name, path], index) => ({
  name: `no-upward-import-from-${name}`,
  comment: `${name} sits below ${layers
    .slice(index + 1)
    .map(([above]) => above)
    .join(', ')}: it must not import them`,
  severity: 'error',
  from: { path },
  to: { path: layers.slice(index + 1).map(([, above]) => `(${above})`) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle: one of these modules belongs lower (or in util/).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'no-unlayered-module',
      comment: 'Every module of src/ belongs to a layer: add its folder to .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/', pathNot: layers.map(([, path]) => `(${path})`) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|dist|test)/' },
    // Type-only imports count: a layer that names another's types depends on it as much as one that calls it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
