// uPlot's IIFE build (loaded by a classic script element in index.html, before the modules run) sets a
// global; this module hands it to charts.js as an import, so only one file names the global.
export default globalThis.uPlot;
