// api.ts — wasm/index.mjs checked against its types, wasm/index.d.ts (`tsc -p tests/types`, run by
// scripts/test.sh): what the types declare, the code has, with types that fit (the code's JSDoc names the
// declared types, and its bodies are checked under // @ts-check); and what the code exports, the types declare.
import * as impl from '../../wasm/index.mjs';
import type * as api from '../../wasm/index.js';

/** Fails to compile, naming them, unless T (the names the types leave out) is empty. */
type Declared<T extends never> = T;

// Sim's constructor is the module's own (the types declare it private), so its instances are compared.
export const exported: Omit<typeof api, 'Sim'> = impl;
export const sim = (s: InstanceType<typeof impl.Sim>): api.Sim => s;

export type Exports = Declared<Exclude<keyof typeof impl, keyof typeof api>>;
export type SimMembers = Declared<Exclude<keyof InstanceType<typeof impl.Sim>, keyof api.Sim>>;
export type DriverMembers = Declared<Exclude<keyof InstanceType<typeof impl.Driver>, keyof api.Driver>>;
