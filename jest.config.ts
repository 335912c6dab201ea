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
