//! Unit tests of the PowerShell and cmd.exe lenses.
