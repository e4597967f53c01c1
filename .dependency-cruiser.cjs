/**
 * The module boundaries of the repository, checked by `npm test` (see docs/architecture.md).
 * Each rule says why it exists; a violation fails the build with the rule's name.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'feature-imports-other-feature',
      comment:
        'A feature of the web app is self-contained: what two features share lives in components/, hooks/ or lib/, ' +
        'and a route composes features.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'shared-code-imports-feature',
      comment: 'components/, hooks/, lib/ and config/ serve every feature, so they cannot depend on one.',
      severity: 'error',
      from: { path: '^apps/web/src/(components|hooks|lib|config)/' },
      to: { path: '^apps/web/src/(features|routes)/' },
    },
    {
      name: 'feature-imports-route',
      comment: 'Routes compose features, never the other way round.',
      severity: 'error',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/routes/' },
    },
    {
      name: 'app-imports-other-app',
      comment:
        "No app imports another app's code (web, server, hub, and the web app's end-to-end tests): what they " +
        'share is a workspace package under packages/.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'package-imports-app',
      comment: 'Packages are shared by the apps and know nothing of them.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'contract-imports-workspace',
      comment:
        'The contract is the bottom layer: wire schemas, error codes, constants and pure rules, importing no other workspace code.',
      severity: 'error',
      from: { path: '^packages/contract/' },
      to: { path: '^packages/', pathNot: '^packages/contract/' },
    },
    {
      name: 'client-beyond-contract',
      comment:
        'The action client runs in the browser, the hub and tests alike: it needs the contract and nothing of React or Node.',
      severity: 'error',
      from: { path: '^packages/client/src/(?!.*\\.test\\.ts$)' },
      to: {
        pathNot: '^packages/(client|contract)/|node_modules/(jose|zod)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'server-imports-react',
      comment: 'The server never renders React.',
      severity: 'error',
      from: { path: '^apps/server/' },
      to: { path: 'node_modules/(react|react-dom|@tanstack/react-)' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles make load order matter and hide layering mistakes.',
      severity: 'error',
      from: { path: '^(apps|packages)/', pathNot: 'routeTree\\.gen\\.ts$' },
      to: { circular: true, viaOnly: { pathNot: 'routeTree\\.gen\\.ts$' } },
    },
    {
      name: 'chart-library-outside-usage',
      comment:
        'The chart library is large: only the dial-time history (its own lazily loaded route) may import it, ' +
        'so it stays out of the dashboard and sign-in bundles (docs/decisions/029).',
      severity: 'error',
      from: { pathNot: '^apps/web/src/features/usage/' },
      to: { path: 'node_modules/recharts/' },
    },
    {
      name: 'usage-screen-outside-its-route',
      comment:
        "The history's screen (and the chart with it) is loaded by its route only, never by another screen; the console's customer view gets the chart lazily from its route.",
      severity: 'error',
      // The console's customer view draws the same chart, loaded lazily by its route (decision 077).
      from: {
        pathNot:
          '^apps/web/src/(features/usage/|routes/_authenticated/dashboard/usage\\.tsx$|routes/admin/_console/\\$\\.tsx$)',
      },
      to: { path: '^apps/web/src/features/usage/components/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the resolver cannot find is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|\\.e2e-builds|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
