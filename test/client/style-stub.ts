/** Stylesheets mean nothing to jsdom: every `*.css` import resolves here. */
export default {};
