/**
 * The deployment suite (test/deploy): drives the built product (dist/) behind nginx on
 * PostgreSQL, so `npm test` runs it after the build, apart from the unit and API projects.
 * @type {import('jest').Config}
 */
module.exports = {
  displayName: 'deploy',
  rootDir: '../..',
  roots: ['<rootDir>/test/deploy'],
  testEnvironment: 'node',
  transform: { '^.+\\.(t|m?j)sx?$': ['@swc/jest', {}] },
};
