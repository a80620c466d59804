import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { BUNDLED_FORMATS, bundledFilters, CONFIG_FILE_PATTERN, documentSelector, FileFilter, globFilters } from '../src/selector';

// path.matchesGlob is experimental in Node 20 and warns once; the warning is noise here.
process.removeAllListeners('warning');

type Matcher = (file: string, pattern: string) => boolean;
const matchesGlob = (path as unknown as { matchesGlob?: Matcher }).matchesGlob;

function handled(filters: FileFilter[], file: string, language = 'plaintext'): boolean {
  if (matchesGlob === undefined) throw new Error('no glob matcher');
  return filters.some(
    (filter) => (filter.language === undefined || filter.language === language) && matchesGlob(file, filter.pattern),
  );
}

describe('document selector', () => {
  test('every bundled extension is covered', () => {
    const extensions = BUNDLED_FORMATS.flatMap((format) => format.extensions).sort();
    assert.deepEqual(
      extensions,
      [
        'atom', 'csproj', 'csv', 'dot', 'el', 'expr', 'fsproj', 'geojson', 'gpx', 'gv', 'har', 'ini', 'json', 'jsonc',
        'jsonld', 'kml', 'lisp', 'lsp', 'nuspec', 'obj', 'opml', 'plist', 'pom', 'props', 'resx', 'rss', 'scm', 'sexp',
        'svg', 'targets', 'tinyc', 'toml', 'vbproj', 'webmanifest', 'wsdl', 'xaml', 'xhtml', 'xml', 'xsd', 'xsl',
        'xslt', 'yaml', 'yml',
      ],
    );
    for (const filter of bundledFilters()) assert.equal(filter.scheme, 'file');
  });

  test('bundled patterns match files in any folder, in either case', { skip: matchesGlob === undefined }, () => {
    const filters = bundledFilters();
    assert.equal(handled(filters, '/w/data/order.json', 'json'), true);
    assert.equal(handled(filters, '/w/ORDER.JSON', 'json'), true);
    assert.equal(handled(filters, '/w/map.geojson', 'json'), true);
    assert.equal(handled(filters, '/w/a/b/c/settings.ini', 'ini'), true);
    assert.equal(handled(filters, '/w/prog.tinyc'), true);
    assert.equal(handled(filters, '/w/graph.gv'), true);
    assert.equal(handled(filters, '/w/model.obj'), true);
    assert.equal(handled(filters, '/w/table.csv'), true);
    assert.equal(handled(filters, '/w/calc.expr'), true);
    assert.equal(handled(filters, '/w/init.el'), true);
    assert.equal(handled(filters, '/w/pyproject.toml'), true);
    assert.equal(handled(filters, '/w/config/settings.jsonc', 'jsonc'), true);
    assert.equal(handled(filters, '/w/deploy/compose.yml', 'yaml'), true);
    assert.equal(handled(filters, '/w/compose.YAML'), true);
    assert.equal(handled(filters, '/w/pom.xml', 'xml'), true);
    assert.equal(handled(filters, '/w/icons/logo.svg'), true);
    assert.equal(handled(filters, '/w/src/App/App.csproj'), true);
    assert.equal(handled(filters, '/w/site/web.config'), true);
    assert.equal(handled(filters, '/w/.clang-format'), true);
    assert.equal(handled(filters, '/w/notes.txt'), false);
    assert.equal(handled(filters, '/w/jsonfile'), false);
  });

  test('.json files with comments are taken by the names the server reads as jsonc', { skip: matchesGlob === undefined }, () => {
    const filters = bundledFilters();
    assert.equal(handled(filters, '/w/tsconfig.json', 'jsonc'), true);
    assert.equal(handled(filters, '/w/packages/web/tsconfig.app.json', 'jsonc'), true);
    assert.equal(handled(filters, '/w/.vscode/settings.json', 'jsonc'), true);
    assert.equal(handled(filters, '/w/team.code-workspace', 'jsonc'), true);
    assert.equal(handled(filters, '/home/u/.config/Code/User/keybindings.json', 'jsonc'), false);
    assert.equal(handled(filters, '/w/data.json', 'json'), true);
  });

  test('user globs follow the server: bare globs match names anywhere, others relative paths', { skip: matchesGlob === undefined }, () => {
    const filters = globFilters(['*.conf', 'config/**/*.cfg', '/rooted/*.x', './here/*.y', '**/deep/*.z']);
    assert.deepEqual(
      filters.map((filter) => filter.pattern),
      ['**/*.conf', '**/config/**/*.cfg', '**/rooted/*.x', '**/here/*.y', '**/deep/*.z'],
    );
    assert.equal(handled(filters, '/w/etc/app.conf'), true);
    assert.equal(handled(filters, '/w/config/a/b/app.cfg'), true);
    assert.equal(handled(filters, '/w/config/app.cfg'), true);
    assert.equal(handled(filters, '/w/other/app.cfg'), false);
    assert.equal(handled(filters, '/w/rooted/file.x'), true);
  });

  test('user globs come first, then the bundled formats and .inputmend.toml; duplicates once', () => {
    const selector = documentSelector(['*.conf', '*.conf', '  ']);
    assert.deepEqual(selector[0], { scheme: 'file', pattern: '**/*.conf' });
    assert.equal(selector.filter((filter) => filter.pattern === '**/*.conf').length, 1);
    assert.equal(selector.length, 1 + bundledFilters().length + 1);
    assert.deepEqual(selector[selector.length - 1], { scheme: 'file', pattern: CONFIG_FILE_PATTERN });
  });
});
