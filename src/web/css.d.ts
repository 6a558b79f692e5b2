// esbuild bundles imported style sheets into the entry's .css output; to TypeScript they are modules without exports.
declare module '*.css';
