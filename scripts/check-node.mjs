// Imported first by `npm start`, `npm run dev` and `npm test`: below Node.js 22.12 (the oldest the
// dependencies support) they stop at once with one line saying what to run, instead of failing later in
// a dependency. Plain JavaScript that any Node.js parses.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}@24`;
  const bin = process.platform === 'win32' ? '' : '/bin';
  console.error(
    `Robot Portal needs Node.js 22.12 or newer, 24 recommended (this is ${process.version}); to get Node 24 from the npm registry: npm install --prefix ~/.node24 ${pkg} && export PATH=~/.node24/node_modules/${pkg.slice(0, -3)}${bin}:$PATH`,
  );
  process.exit(1);
}
