/** Stylesheets are bundled by webpack (css-loader); importing one only adds it to the page. */
declare module '*.css';
