/**
 * Which documents the client hands to the server: the bundled formats by file
 * extension and file name, plus the globs of the user's oracles. Pure logic.
 */

/** A document filter in the protocol form that vscode-languageclient accepts. */
export interface FileFilter {
  scheme: 'file';
  language?: string;
  pattern: string;
}

export interface BundledFormat {
  grammar: string;
  extensions: string[];
  /** File-name globs of the grammar's `files:` header (a glob with `/` matches the end of the path). */
  files?: string[];
}

/** The server's bundled grammars and the extensions and file names they are chosen for. */
export const BUNDLED_FORMATS: readonly BundledFormat[] = [
  { grammar: 'json', extensions: ['json', 'geojson', 'jsonld', 'har', 'webmanifest'] },
  { grammar: 'ini', extensions: ['ini'] },
  { grammar: 'sexp', extensions: ['lisp', 'lsp', 'sexp', 'scm', 'el'] },
  { grammar: 'tinyc', extensions: ['tinyc'] },
  { grammar: 'dot', extensions: ['dot', 'gv'] },
  { grammar: 'obj', extensions: ['obj'] },
  { grammar: 'csv', extensions: ['csv'] },
  { grammar: 'expr', extensions: ['expr'] },
  { grammar: 'toml', extensions: ['toml'] },
  { grammar: 'yaml', extensions: ['yaml', 'yml'], files: ['.clang-format', '.clang-tidy'] },
  {
    grammar: 'xml',
    extensions: [
      'xml', 'svg', 'xsd', 'xsl', 'xslt', 'xhtml', 'xaml', 'plist', 'csproj', 'vbproj', 'fsproj', 'props',
      'targets', 'resx', 'nuspec', 'kml', 'gpx', 'opml', 'rss', 'atom', 'wsdl', 'pom',
    ],
    files: ['web.config', 'app.config', 'packages.config', 'nuget.config', 'NuGet.Config', 'fonts.conf'],
  },
  {
    grammar: 'jsonc',
    extensions: ['jsonc'],
    files: [
      'tsconfig.json', 'tsconfig.*.json', 'jsconfig.json', 'jsconfig.*.json', '.vscode/*.json',
      'devcontainer.json', '.devcontainer.json', '*.code-workspace',
    ],
  },
];

/** `.inputmend.toml` files are synchronised so that saving one reconfigures the server. */
export const CONFIG_FILE_PATTERN = '**/.inputmend.toml';

function extensionGlob(extensions: readonly string[]): string {
  // The server compares extensions case-insensitively; VS Code globs are case-sensitive.
  const variants: string[] = [];
  for (const extension of extensions) {
    for (const variant of [extension.toLowerCase(), extension.toUpperCase()]) {
      if (!variants.includes(variant)) variants.push(variant);
    }
  }
  return variants.length === 1 ? `**/*.${variants[0]}` : `**/*.{${variants.join(',')}}`;
}

/**
 * Filters for the bundled formats. `.json` files are taken by extension only
 * when VS Code treats them as plain JSON; the files the server reads as JSON
 * with comments are taken by name (tsconfig.json, .vscode/*.json, ...), and
 * other files VS Code knows to allow comments (a user's settings.json) are
 * left alone unless a user oracle matches them.
 */
export function bundledFilters(): FileFilter[] {
  const filters: FileFilter[] = [];
  for (const format of BUNDLED_FORMATS) {
    if (format.grammar === 'json') {
      filters.push({ scheme: 'file', language: 'json', pattern: extensionGlob(['json']) });
      filters.push({ scheme: 'file', pattern: extensionGlob(format.extensions.filter((e) => e !== 'json')) });
    } else {
      filters.push({ scheme: 'file', pattern: extensionGlob(format.extensions) });
    }
    for (const name of format.files ?? []) filters.push({ scheme: 'file', pattern: `**/${name}` });
  }
  return filters;
}

/**
 * Filters for the user's oracle globs. The server matches a glob without `/`
 * against the file name in any folder, and a glob with `/` against the path
 * relative to the workspace folder. VS Code matches patterns against the whole
 * path, so both get a leading globstar; for a glob with `/` this also takes nested
 * folders, where the server then falls back to `.inputmend.toml` or the bundled
 * grammars.
 */
export function globFilters(globs: readonly string[]): FileFilter[] {
  const filters: FileFilter[] = [];
  for (const raw of globs) {
    const glob = raw.trim().replace(/^(\.\/|\/)+/, '');
    if (!glob) continue;
    const pattern = glob.startsWith('**/') ? glob : `**/${glob}`;
    if (!filters.some((filter) => filter.pattern === pattern)) filters.push({ scheme: 'file', pattern });
  }
  return filters;
}

/** The full selector: user globs first (they win on the server too), then bundled formats. */
export function documentSelector(globs: readonly string[]): FileFilter[] {
  return [
    ...globFilters(globs),
    ...bundledFilters(),
    { scheme: 'file', pattern: CONFIG_FILE_PATTERN },
  ];
}
