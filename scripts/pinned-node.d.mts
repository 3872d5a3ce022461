/** The majors with a lockfile of their own, scripts/node<major>/package-lock.json. */
export declare const MAJORS: readonly number[];
/** The pinned Node's binary, once installed. */
export declare function nodeBinary(major: number): string;
/** Installs the locked Node `major` unless it is there; says why not on another platform. */
export declare function installNode(major: number): void;
