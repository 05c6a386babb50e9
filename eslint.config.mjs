// Lint rules: typescript-eslint recommended plus the house rules from the style guide
// (no any, braces always, no non-null assertions), and the import boundaries between top folders.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Import boundaries (docs/development.md#import-boundaries): a file in one of these folders may import its own folder
// and the folders its row names, nothing else. Folders not in the table (test/, bench/, scripts/) are
// unrestricted. Bottom up, as in docs/development.md#layout: server -> (rest-compat, subscriptions, schema) -> (engine,
// launcher, executor, config, auth) -> drivers -> (sources, engine ports) -> (store, secrets, model).
const FOLDERS = {
  model: 'src/model',
  store: 'src/store',
  secrets: 'src/secrets',
  sources: 'src/sources',
  config: 'src/config',
  auth: 'src/auth',
  engine: 'src/engine',
  launcher: 'src/launcher',
  executor: 'src/executor',
  drivers: 'src/drivers',
  schema: 'schema',
  subscriptions: 'subscriptions',
  'rest-compat': 'rest-compat',
  server: 'src/server',
};
const ANYTHING = Object.keys(FOLDERS);
const MAY_IMPORT = {
  model: [],
  store: ['model'],
  secrets: ['model'],
  sources: ['model', 'store', 'secrets'],
  config: ['model', 'store', 'secrets', 'sources', 'drivers', 'engine'],
  auth: ['model', 'store', 'secrets', 'config'],
  engine: ['model', 'store', 'secrets', 'config', 'auth'],
  launcher: ['model', 'store', 'secrets', 'config', 'auth', 'engine'],
  executor: ['model', 'store', 'secrets', 'config', 'auth', 'sources', 'engine'],
  drivers: ['model', 'store', 'sources', 'engine'],
  schema: ['model', 'store', 'secrets', 'sources', 'config', 'auth', 'engine', 'launcher', 'executor'],
  subscriptions: ['model', 'store', 'secrets', 'sources', 'config', 'auth', 'engine', 'launcher', 'executor', 'schema'],
  'rest-compat': ['model', 'store', 'secrets', 'config', 'auth', 'schema'],
  server: ANYTHING,
};

// Files allowed more than their folder's row until the change that removes the import lands.
const BOUNDARY_EXCEPTIONS = [];

// Folders that others may import only through a few of their paths: the engine through its ports (for the
// folders that implement them), the drivers through their registry and interface (for the configuration loader).
const NARROW_IMPORTS = [
  {
    folder: 'engine',
    except: ['./ports'],
    importers: ['launcher', 'executor', 'drivers', 'config'],
    what: 'the ports',
  },
  {
    folder: 'drivers',
    except: ['./registry.ts', './driver.ts'],
    importers: ['config'],
    what: 'the registry and the Driver interface',
  },
];

function boundaryRule(folder, alsoImports = []) {
  const allowed = [...MAY_IMPORT[folder], ...alsoImports];
  const forbidden = ANYTHING.filter((other) => other !== folder && !allowed.includes(other));
  const zones = [];
  if (forbidden.length > 0) {
    const message = `${FOLDERS[folder]} may import only ${allowed.join(', ') || 'nothing'} (docs/development.md#import-boundaries).`;
    zones.push({ target: FOLDERS[folder], from: forbidden.map((other) => FOLDERS[other]), message });
  }
  for (const narrow of NARROW_IMPORTS.filter((entry) => entry.importers.includes(folder))) {
    const paths = narrow.except.map((part) => `${FOLDERS[narrow.folder]}/${part.replace(/^\.\//, '')}`).join(', ');
    const message = `${FOLDERS[folder]} may import only ${narrow.what} of ${FOLDERS[narrow.folder]}, ${paths} (docs/development.md#import-boundaries).`;
    zones.push({ target: FOLDERS[folder], from: FOLDERS[narrow.folder], except: narrow.except, message });
  }
  if (zones.length === 0) {
    return {};
  }
  return { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }] };
}

const folderOf = (file) => ANYTHING.find((folder) => file.startsWith(`${FOLDERS[folder]}/`));
const boundaryConfigs = [
  ...ANYTHING.map((folder) => ({
    files: [`${FOLDERS[folder]}/**/*.ts`],
    ignores: BOUNDARY_EXCEPTIONS.map((exception) => exception.file),
    rules: boundaryRule(folder),
  })),
  ...BOUNDARY_EXCEPTIONS.map(({ file, alsoImports }) => ({
    files: [file],
    rules: boundaryRule(folderOf(file), alsoImports),
  })),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'data/**',
      'coverage/**',
      'rest-compat/generated/**',
      'web/src/generated/**',
      'web/dist/**',
      'bin/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'smart'],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
  },
  ...boundaryConfigs,
);
