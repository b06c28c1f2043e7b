//! Program knowledge: for each common program, which operands are read, written or deleted
//! paths, which are URLs, which options take values.
