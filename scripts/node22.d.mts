/** The Node 22 binary, once installed. */
export declare const NODE22: string;
/** Installs the locked Node 22 unless it is there; says why not on another platform. */
export declare function installNode22(): void;
