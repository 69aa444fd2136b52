// Vite without a React plugin: esbuild compiles the JSX (the automatic runtime, react/jsx-runtime).
// The dev server passes /api to the local service (`npx loyalty-qualifier serve --port 8787`),
// so the page and the service share one origin and no CORS is needed; LQ_SERVICE_URL names another.
// A plain object (Vite's defineConfig only adds types): the config imports nothing.

/** @type {import('vite').UserConfig} */
export default {
  esbuild: { jsx: 'automatic' },
  server: {
    proxy: { '/api': process.env.LQ_SERVICE_URL ?? 'http://127.0.0.1:8787' },
  },
};
