import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * A patch in patches/ (patch-package, decision 045) is written against one version of its package: every
 * workspace that depends on the package pins exactly that version, and that version is what is installed,
 * so an update cannot slip in under the patch (patch-package would fail, or worse, half apply).
 */
const root = new URL('../', import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

const patches = readdirSync(new URL('patches/', root))
  .filter((file) => file.endsWith('.patch'))
  .map((file) => {
    const [, name, version] = /^(.+)\+(\d+\.\d+\.\d+[^+]*)\.patch$/.exec(file.replace(/\+\+/g, '/')) ?? [];
    return { file, name: name as string, version: version as string };
  });

const manifests = [
  'package.json',
  ...readJson('package.json').workspaces.flatMap((glob: string) => {
    const dir = glob.replace(/\/\*$/, '');
    return readdirSync(new URL(`${dir}/`, root)).map((name) => `${dir}/${name}/package.json`);
  }),
].filter((path) => {
  try {
    readJson(path);
    return true;
  } catch {
    return false;
  }
});

describe('patched dependencies', () => {
  it('there is a patch to check', () => {
    expect(patches.map((p) => p.file)).toContain('postgres+3.4.9.patch');
  });

  for (const { file, name, version } of patches) {
    it(`${file}: every manifest that names ${name} pins ${version}, and ${version} is installed`, () => {
      const ranges = manifests.flatMap((path) => {
        const pkg = readJson(path);
        const range = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
        return range === undefined ? [] : [{ path, range }];
      });
      expect(ranges.length).toBeGreaterThan(0);
      for (const { path, range } of ranges) expect({ path, range }).toEqual({ path, range: version });
      expect(readJson(`node_modules/${name}/package.json`).version).toBe(version);
    });
  }
});
