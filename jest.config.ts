import type { Config } from 'jest';

// msw 2, @ant-design/colors (required by the icons' CommonJS build), echarts' modular entry points and a few server-side dependencies ship ESM only: let swc transform them.
const esmPackages = [
  'msw',
  '@mswjs',
  '@ant-design/colors',
  'rettime',
  'until-async',
  'outvariant',
  'strict-event-emitter',
  '@open-draft',
  'headers-polyfill',
  'content-disposition',
  'cookie',
  'light-my-request',
  'echarts',
  'zrender',
];
const transformIgnorePatterns = [`/node_modules/(?!(${esmPackages.join('|')})/)`];
const transform = { '^.+\\.(t|m?j)sx?$': ['@swc/jest', { jsc: { transform: { react: { runtime: 'automatic' } } } }] } as const;

const config: Config = {
  // Each test file's modules stay reachable after it ends (jest's module registries leak), so one
  // long-lived process grew past 1.5 GB and spent its time in garbage collection: the whole suite
  // ran 1,060 s, the fuzz suite 262 s of it (75 s on its own). A worker past this size after a
  // file is replaced (this also makes jest use a worker even with one core to spare): 660 s.
  workerIdleMemoryLimit: '700MB',
  projects: [
    {
      displayName: 'web',
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { customExportConditions: [''] },
      roots: ['<rootDir>/test/client'],
      setupFilesAfterEnv: ['<rootDir>/test/client/setup.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/test/client/style-stub.ts' },
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      // The hang detector of 30 s (a project's testTimeout would be ignored): see the setup file.
      setupFilesAfterEnv: ['<rootDir>/test/server/setup.ts'],
      roots: ['<rootDir>/test/server'],
      transform,
      transformIgnorePatterns,
    },
  ],
};

export default config;
