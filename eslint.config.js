// The browser's modules' lint (scripts/check_js): eslint's recommended rules and a few
// of this project's, for ES modules served as they are (no bundler).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**"] },
  js.configs.recommended,
  {
    files: ["src/trashcards/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_",
        caughtErrors: "none" }],
      "no-alert": "error",
      "no-constructor-return": "error",
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-shadow": "off",
    },
  },
  {
    files: ["tests/web/js/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module",
      globals: { ...globals.node } },
  },
];
