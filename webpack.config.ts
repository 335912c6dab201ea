/**
 * Client bundle (DESIGN 9): the login route ships the entry only; the shell and every screen are
 * lazy chunks with content-hashed names, precompressed as .gz and .br for the server to send.
 */
import path from 'node:path';
import zlib from 'node:zlib';

import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import fs from 'node:fs';
import type { Compiler, Configuration, Module } from 'webpack';
import 'webpack-dev-server';

const API_PORT = process.env.PORT ?? '8080';

/** Written next to dist/client (not served): what scripts/bundle-report.js checks the budgets on. */
const MANIFEST = path.resolve(__dirname, 'dist/bundle-manifest.json');

/** The npm package of a module's file, e.g. "echarts" or "@ant-design/icons". */
function packagesOf(module: Module): string[] {
  const inner = (module as Module & { modules?: Module[] }).modules;
  if (inner) return inner.flatMap(packagesOf);
  const file = module.nameForCondition() ?? '';
  const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file);
  return match ? [match[1].replace(/\\/g, '/')] : [];
}

/**
 * Records, per named chunk group (main, shell, view-*, menu-search), the files it loads, and per
 * file the npm packages inside, so the report can say what each route costs and where a library
 * ended up.
 */
class BundleManifestPlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.done.tap('BundleManifestPlugin', ({ compilation }) => {
      const groups: Record<string, string[]> = {};
      for (const [name, group] of compilation.namedChunkGroups) {
        groups[name] = group.chunks.flatMap((chunk) => [...chunk.files]);
      }
      const packages: Record<string, string[]> = {};
      for (const chunk of compilation.chunks) {
        const found = new Set(compilation.chunkGraph.getChunkModules(chunk).flatMap(packagesOf));
        for (const file of chunk.files) packages[file] = [...found].sort();
      }
      fs.mkdirSync(path.dirname(MANIFEST), { recursive: true });
      fs.writeFileSync(MANIFEST, JSON.stringify({ groups, packages }, null, 1));
    });
  }
}
const compressible = /\.(js|css|html|svg)$/;

export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/client/index.tsx' },
    output: {
      path: path.resolve(__dirname, 'dist/client'),
      filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      publicPath: '/',
      clean: true,
    },
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: {
      rules: [
        { test: /\.tsx?$/, loader: 'ts-loader', exclude: /node_modules/, options: { transpileOnly: true } },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
      ],
    },
    optimization: {
      splitChunks: { chunks: 'all' },
      runtimeChunk: 'single',
    },
    performance: { hints: false },
    plugins: [
      new HtmlWebpackPlugin({ template: 'public/index.html' }),
      // Extracted in development too (it hot-reloads CSS), so no style-loader is needed.
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
      }),
      ...(production
        ? [
            new BundleManifestPlugin(),
            new CompressionPlugin({ test: compressible, algorithm: 'gzip', filename: '[path][base].gz', minRatio: Infinity }),
            new CompressionPlugin<zlib.BrotliOptions>({
              test: compressible,
              algorithm: 'brotliCompress',
              filename: '[path][base].br',
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
              minRatio: Infinity,
            }),
          ]
        : []),
    ],
    devServer: {
      port: 3000,
      hot: true,
      historyApiFallback: true,
      proxy: [{ context: ['/api'], target: `http://127.0.0.1:${API_PORT}` }],
    },
  };
};
