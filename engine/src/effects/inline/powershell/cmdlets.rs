//! The cmdlets the PowerShell lens knows: their names and aliases, their parameters (with
//! aliases; a unique prefix also names one, as PowerShell allows), the role of each value,
//! and what the cmdlet does with them ([`Act`]). Sources: the PowerShell 7 cmdlet reference
//! (Microsoft.PowerShell.Management, .Utility, .Core) and `Get-Alias` of Windows PowerShell
//! 5.1 and PowerShell 7.
//!
//! A command the table does not know is a program: it goes to the shell lens's program
//! table (`git`, `npm`, `dotnet`, `cmd`, `powershell`).

/// What a value of a parameter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum P {
    /// A path the cmdlet acts on (by its [`Act`]).
    Path,
    /// A destination path (`Copy-Item -Destination`, `Rename-Item -NewName`).
    Dest,
    /// Text written (`-Value`, `-InputObject`).
    Value,
    /// A URL requested.
    Url,
    /// The request method.
    Method,
    /// A request body or form, or headers: what it carries is sent.
    Body,
    /// A file sent as the request body (`-InFile`).
    InFile,
    /// A file written (`-OutFile`, `-RedirectStandardOutput`).
    OutFile,
    /// A file read (`-RedirectStandardInput`).
    InPath,
    /// PowerShell code run (`Invoke-Expression -Command`).
    Code,
    /// A program run (`Start-Process -FilePath`).
    Program,
    /// Its arguments (`Start-Process -ArgumentList`).
    Args,
    /// The kind of item made (`New-Item -ItemType`).
    ItemType,
    /// A name (`New-Item -Name`, `Install-Module -Name`).
    Name,
    /// A `-Verb` (`RunAs`: as administrator).
    Verb,
    /// An execution-policy scope.
    Scope,
    /// A host or computer name reached.
    Host,
    /// A switch: it takes no value.
    Switch(Sw),
    /// A search pattern (`Select-String -Pattern`).
    Pattern,
    /// A file-name filter (`Get-ChildItem -Filter`).
    Filter,
    /// A process id (`Stop-Process -Id`).
    Id,
    /// An account added to a group (`Add-LocalGroupMember -Member`).
    Member,
    /// A value the lens does not need.
    Other,
}

/// The switches the lens reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sw {
    /// `-Recurse`.
    Recurse,
    /// `-Append`.
    Append,
    /// `-WhatIf`: nothing is done.
    WhatIf,
    /// `-Force` (where it changes what is done: `Stop-Process -Force` kills).
    Force,
    /// `Select-String -CaseSensitive`: the pattern's case counts (it is ignored by default).
    CaseSensitive,
    /// `Select-String -NotMatch`: the lines that do not match are printed.
    NotMatch,
    /// `Select-String -Quiet`: only whether a match was found is printed.
    Quiet,
    /// A switch with no bearing on effects.
    Plain,
}

/// What a cmdlet does with its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Act {
    /// Reads its paths.
    Read,
    /// Writes its paths with its value (appends when `-Append`, or `append`).
    Write {
        /// Always appends (`Add-Content`).
        append: bool,
    },
    /// Deletes its paths (recursively with `-Recurse`).
    Delete,
    /// Empties its paths.
    Clear,
    /// Copies (or moves) its paths to its destination.
    Copy {
        /// The sources go away.
        moves: bool,
    },
    /// Renames its path to a new name in the same folder.
    Rename,
    /// Makes an item (`New-Item`): a file or folder written, a link made.
    NewItem,
    /// Makes folders (`mkdir`, `md`).
    Mkdir,
    /// Lists or tests paths: nothing leaves the machine and nothing changes (the
    /// environment drive `Env:` is a dump of every variable).
    List,
    /// Searches files (`Select-String`): reads its paths.
    Search,
    /// Changes the working folder.
    Chdir,
    /// Sends a web request.
    Web,
    /// Runs PowerShell code given as text.
    Eval,
    /// Starts a process.
    Start,
    /// Stops processes.
    Stop,
    /// Sets the script execution policy.
    ExecPolicy,
    /// Installs a module or package from a repository.
    Install,
    /// Changes the Windows registry or security settings of the machine.
    System,
    /// Administers Windows accounts or start-up, spelled as the command-line tool that does
    /// the same (`New-LocalUser` is `net user NAME /add`).
    Admin(Admin),
    /// Packs its paths into an archive at its destination (`Compress-Archive`).
    Pack,
    /// Unpacks its archive into its destination (`Expand-Archive`).
    Unpack,
    /// Compiles and loads code (`Add-Type`).
    Compile,
    /// Writes its values to the output (`Write-Output`, `echo`).
    Output,
    /// Has no effect the model names (formatting, filtering, objects in the pipeline).
    Pure,
}

/// The Windows administration cmdlets the lens spells as their command-line tools, so the
/// program table judges both spellings alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Admin {
    /// `New-LocalUser NAME`: `net user NAME /add`.
    NewUser,
    /// `Enable-LocalUser NAME`: `net user NAME /active:yes`.
    EnableUser,
    /// `Add-LocalGroupMember GROUP MEMBER`: `net localgroup GROUP MEMBER /add`.
    JoinGroup,
    /// `Register-ScheduledTask NAME …`: `schtasks /create /tn NAME`.
    Task,
    /// `New-Service NAME PATH`: `sc create NAME binPath= PATH`.
    Service,
    /// `Set-ItemProperty` / `New-ItemProperty PATH NAME VALUE`: on a registry key, `reg add
    /// KEY /v NAME /d VALUE`.
    Property,
    /// `Remove-ItemProperty PATH NAME`: on a registry key, `reg delete KEY /v NAME /f`.
    RemoveProperty,
    /// `Set-MpPreference` / `Add-MpPreference`: a Defender preference that weakens the
    /// protection (`-DisableRealtimeMonitoring $true`, `-ExclusionPath C:\x`).
    Defender,
    /// `Set-NetFirewallProfile -Enabled False`: `netsh advfirewall set PROFILE state off`.
    FirewallProfile,
    /// `Disable-NetAdapter [-Name] NAME`: `netsh interface set interface NAME admin=disabled`.
    NetAdapter,
    /// `Clear-EventLog [-LogName] LOG[,LOG…]`: `wevtutil cl LOG` for each.
    ClearLog,
    /// `Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList LINE`, `Invoke-CimMethod
    /// -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine=LINE}`: `wmic
    /// process call create LINE`.
    WmiCreate,
}

/// One parameter: its name, aliases, and the role of its value.
#[derive(Debug)]
pub(super) struct Param {
    pub(super) name: &'static str,
    pub(super) aliases: &'static [&'static str],
    pub(super) role: P,
}

/// One cmdlet: its names (the cmdlet's first, then aliases, lower case), its parameters, the
/// roles of its positional values in order, and its action.
#[derive(Debug)]
pub(super) struct Cmdlet {
    pub(super) names: &'static [&'static str],
    pub(super) params: &'static [Param],
    pub(super) positional: &'static [P],
    pub(super) act: Act,
}

const fn p(name: &'static str, aliases: &'static [&'static str], role: P) -> Param {
    Param {
        name,
        aliases,
        role,
    }
}

const SW: P = P::Switch(Sw::Plain);

/// The parameters every cmdlet has (`about_CommonParameters`).
pub(super) static COMMON: &[Param] = &[
    p("verbose", &["vb"], SW),
    p("debug", &["db"], SW),
    p("whatif", &["wi"], P::Switch(Sw::WhatIf)),
    p("confirm", &["cf"], SW),
    p("erroraction", &["ea"], P::Other),
    p("warningaction", &["wa"], P::Other),
    p("informationaction", &["infa"], P::Other),
    p("errorvariable", &["ev"], P::Other),
    p("warningvariable", &["wv"], P::Other),
    p("informationvariable", &["iv"], P::Other),
    p("outvariable", &["ov"], P::Other),
    p("outbuffer", &["ob"], P::Other),
    p("pipelinevariable", &["pv"], P::Other),
];

/// `-Path` / `-LiteralPath` and the filters of the item cmdlets.
macro_rules! item_params {
    ($($more:expr),* $(,)?) => {
        &[
            p("path", &["pspath"], P::Path),
            p("literalpath", &["lp"], P::Path),
            p("filter", &[], P::Other),
            p("include", &[], P::Other),
            p("exclude", &[], P::Other),
            p("force", &[], SW),
            p("credential", &[], P::Other),
            p("stream", &[], P::Other),
            p("encoding", &[], P::Other),
            p("passthru", &[], SW),
            $($more),*
        ]
    };
}

/// The web-request parameters of `Invoke-WebRequest` and `Invoke-RestMethod`.
static WEB: &[Param] = &[
    p("uri", &["url"], P::Url),
    p("method", &[], P::Method),
    p("custommethod", &["cm"], P::Method),
    p("body", &[], P::Body),
    p("form", &[], P::Body),
    p("headers", &[], P::Body),
    p("infile", &[], P::InFile),
    p("outfile", &[], P::OutFile),
    p("contenttype", &[], P::Other),
    p("useragent", &[], P::Other),
    p("credential", &[], P::Other),
    p("token", &[], P::Body),
    p("authentication", &[], P::Other),
    p("proxy", &[], P::Other),
    p("proxycredential", &[], P::Other),
    p("timeoutsec", &[], P::Other),
    p("maximumredirection", &[], P::Other),
    p("maximumretrycount", &[], P::Other),
    p("retryintervalsec", &[], P::Other),
    p("websession", &[], P::Other),
    p("sessionvariable", &["sv"], P::Other),
    p("transferencoding", &[], P::Other),
    p("certificate", &[], P::Other),
    p("certificatethumbprint", &[], P::Other),
    p("sslprotocol", &[], P::Other),
    p("httpversion", &[], P::Other),
    p("statuscodevariable", &[], P::Other),
    p("responseheaderstvariable", &["rhv"], P::Other),
    p("usebasicparsing", &[], SW),
    p("usedefaultcredentials", &[], SW),
    p("skipcertificatecheck", &[], SW),
    p("skipheadervalidation", &[], SW),
    p("skiphttperrorcheck", &[], SW),
    p("disablekeepalive", &[], SW),
    p("allowunencryptedauthentication", &[], SW),
    p("preservefileauthorizationmetadata", &[], SW),
    p("resume", &[], SW),
    p("passthru", &[], SW),
    p("noproxy", &[], SW),
];

/// The cmdlets, in no particular order (names do not repeat).
pub(super) static CMDLETS: &[Cmdlet] = &[
    Cmdlet {
        names: &["get-content", "gc", "cat", "type"],
        params: item_params![
            p("readcount", &[], P::Other),
            p("totalcount", &["first", "head"], P::Other),
            p("tail", &["last"], P::Other),
            p("delimiter", &[], P::Other),
            p("raw", &[], SW),
            p("wait", &[], SW),
            p("asbytestream", &[], SW),
        ],
        positional: &[P::Path],
        act: Act::Read,
    },
    Cmdlet {
        names: &["set-content", "sc"],
        params: item_params![p("value", &[], P::Value), p("nonewline", &[], SW)],
        positional: &[P::Path, P::Value],
        act: Act::Write { append: false },
    },
    Cmdlet {
        names: &["add-content", "ac"],
        params: item_params![p("value", &[], P::Value), p("nonewline", &[], SW)],
        positional: &[P::Path, P::Value],
        act: Act::Write { append: true },
    },
    Cmdlet {
        names: &["out-file"],
        params: &[
            p("filepath", &["path"], P::Path),
            p("literalpath", &["lp", "pspath"], P::Path),
            p("encoding", &[], P::Other),
            p("append", &[], P::Switch(Sw::Append)),
            p("force", &[], SW),
            p("noclobber", &["noOverwrite"], SW),
            p("width", &[], P::Other),
            p("nonewline", &[], SW),
            p("inputobject", &[], P::Value),
        ],
        positional: &[P::Path, P::Other],
        act: Act::Write { append: false },
    },
    Cmdlet {
        names: &["tee-object", "tee"],
        params: &[
            p("filepath", &["path"], P::Path),
            p("literalpath", &["lp", "pspath"], P::Path),
            p("append", &[], P::Switch(Sw::Append)),
            p("variable", &[], P::Other),
            p("encoding", &[], P::Other),
            p("inputobject", &[], P::Value),
        ],
        positional: &[P::Path],
        act: Act::Write { append: false },
    },
    Cmdlet {
        names: &["remove-item", "rm", "del", "ri", "rd", "rmdir", "erase"],
        params: item_params![p("recurse", &[], P::Switch(Sw::Recurse))],
        positional: &[P::Path],
        act: Act::Delete,
    },
    Cmdlet {
        names: &["clear-content", "clc"],
        params: item_params![],
        positional: &[P::Path],
        act: Act::Clear,
    },
    Cmdlet {
        names: &["copy-item", "cp", "copy", "cpi"],
        params: item_params![
            p("destination", &[], P::Dest),
            p("recurse", &[], P::Switch(Sw::Recurse)),
            p("container", &[], SW),
            p("tosession", &[], P::Host),
            p("fromsession", &[], P::Host),
        ],
        positional: &[P::Path, P::Dest],
        act: Act::Copy { moves: false },
    },
    Cmdlet {
        names: &["move-item", "mv", "move", "mi"],
        params: item_params![p("destination", &[], P::Dest)],
        positional: &[P::Path, P::Dest],
        act: Act::Copy { moves: true },
    },
    Cmdlet {
        names: &["rename-item", "ren", "rni"],
        params: item_params![p("newname", &[], P::Dest)],
        positional: &[P::Path, P::Dest],
        act: Act::Rename,
    },
    Cmdlet {
        names: &["new-item", "ni"],
        params: &[
            p("path", &["pspath"], P::Path),
            p("name", &[], P::Name),
            p("itemtype", &["type"], P::ItemType),
            p("value", &["target"], P::Value),
            p("force", &[], SW),
            p("credential", &[], P::Other),
        ],
        positional: &[P::Path],
        act: Act::NewItem,
    },
    Cmdlet {
        names: &["mkdir", "md"],
        params: &[
            p("path", &["pspath"], P::Path),
            p("name", &[], P::Name),
            p("force", &[], SW),
        ],
        positional: &[P::Path],
        act: Act::Mkdir,
    },
    Cmdlet {
        names: &[
            "get-childitem",
            "gci",
            "ls",
            "dir",
            "get-item",
            "gi",
            "test-path",
            "resolve-path",
            "rvpa",
            "get-itemproperty",
            "gp",
            "get-filehash",
            "get-acl",
            "split-path",
            "join-path",
            "convert-path",
            "cvpa",
        ],
        params: &[
            p("path", &["pspath"], P::Path),
            p("literalpath", &["lp"], P::Path),
            p("filter", &[], P::Filter),
            p("include", &[], P::Filter),
            p("exclude", &[], P::Other),
            p("force", &[], SW),
            p("credential", &[], P::Other),
            p("stream", &[], P::Other),
            p("recurse", &[], P::Switch(Sw::Recurse)),
            p("depth", &[], P::Other),
            p("name", &[], SW),
            p("file", &[], SW),
            p("directory", &["ad", "d"], SW),
            p("hidden", &["ah", "h"], SW),
            p("attributes", &[], P::Other),
            p("pathtype", &["type"], P::Other),
            p("isvalid", &[], SW),
            p("childpath", &[], P::Other),
            p("algorithm", &[], P::Other),
            p("leaf", &[], SW),
            p("parent", &[], SW),
        ],
        positional: &[P::Path, P::Filter],
        act: Act::List,
    },
    Cmdlet {
        names: &["select-string", "sls"],
        params: &[
            p("pattern", &[], P::Pattern),
            p("path", &[], P::Path),
            p("literalpath", &["lp", "pspath"], P::Path),
            p("inputobject", &[], P::Other),
            p("include", &[], P::Other),
            p("exclude", &[], P::Other),
            p("context", &[], P::Other),
            p("encoding", &[], P::Other),
            p("simplematch", &[], SW),
            p("casesensitive", &[], P::Switch(Sw::CaseSensitive)),
            p("list", &[], SW),
            p("quiet", &[], P::Switch(Sw::Quiet)),
            p("notmatch", &[], P::Switch(Sw::NotMatch)),
            // Not a parameter of Select-String, but written for a search below its paths
            // (`sls -Path . -Pattern KEY -Recurse`): read as meant.
            p("recurse", &[], P::Switch(Sw::Recurse)),
            p("allmatches", &[], SW),
            p("raw", &[], SW),
        ],
        positional: &[P::Pattern, P::Path],
        act: Act::Search,
    },
    Cmdlet {
        names: &[
            "set-location",
            "cd",
            "sl",
            "chdir",
            "push-location",
            "pushd",
        ],
        params: &[
            p("path", &[], P::Path),
            p("literalpath", &["lp", "pspath"], P::Path),
            p("passthru", &[], SW),
            p("stackname", &[], P::Other),
        ],
        positional: &[P::Path],
        act: Act::Chdir,
    },
    Cmdlet {
        names: &["invoke-webrequest", "iwr"],
        params: WEB,
        positional: &[P::Url],
        act: Act::Web,
    },
    Cmdlet {
        names: &["invoke-restmethod", "irm"],
        params: WEB,
        positional: &[P::Url],
        act: Act::Web,
    },
    Cmdlet {
        names: &["start-bitstransfer"],
        params: &[
            p("source", &[], P::Url),
            p("destination", &[], P::OutFile),
            p("transfertype", &[], P::Other),
            p("displayname", &[], P::Other),
            p("asynchronous", &[], SW),
        ],
        positional: &[P::Url, P::OutFile],
        act: Act::Web,
    },
    Cmdlet {
        names: &["invoke-expression", "iex"],
        params: &[p("command", &[], P::Code)],
        positional: &[P::Code],
        act: Act::Eval,
    },
    Cmdlet {
        names: &["start-process", "saps", "start"],
        params: &[
            p("filepath", &["path", "pspath", "lp"], P::Program),
            p("argumentlist", &["args"], P::Args),
            p("verb", &[], P::Verb),
            p("workingdirectory", &[], P::Other),
            p("redirectstandardoutput", &["rso"], P::OutFile),
            p("redirectstandarderror", &["rse"], P::OutFile),
            p("redirectstandardinput", &["rsi"], P::InPath),
            p("windowstyle", &[], P::Other),
            p("credential", &[], P::Other),
            p("environment", &[], P::Other),
            p("wait", &[], SW),
            p("nonewwindow", &["nnw"], SW),
            p("passthru", &[], SW),
            p("loaduserprofile", &["lup"], SW),
            p("usenewenvironment", &[], SW),
        ],
        positional: &[P::Program, P::Args],
        act: Act::Start,
    },
    Cmdlet {
        names: &["stop-process", "kill", "spps"],
        params: &[
            p("id", &[], P::Id),
            p("name", &["processname"], P::Name),
            p("inputobject", &[], P::Other),
            p("force", &[], P::Switch(Sw::Force)),
            p("passthru", &[], SW),
        ],
        positional: &[P::Id],
        act: Act::Stop,
    },
    Cmdlet {
        names: &["set-executionpolicy"],
        params: &[
            p("executionpolicy", &[], P::Name),
            p("scope", &[], P::Scope),
            p("force", &[], SW),
        ],
        positional: &[P::Name, P::Scope],
        act: Act::ExecPolicy,
    },
    Cmdlet {
        names: &[
            "install-module",
            "install-package",
            "install-script",
            "install-psresource",
        ],
        params: &[
            p("name", &[], P::Name),
            p("repository", &["source"], P::Url),
            p("requiredversion", &["version"], P::Other),
            p("minimumversion", &[], P::Other),
            p("maximumversion", &[], P::Other),
            p("scope", &[], P::Other),
            p("force", &[], SW),
            p("allowclobber", &[], SW),
            p("skippublishercheck", &[], SW),
            p("trustrepository", &[], SW),
            p("acceptlicense", &[], SW),
            p("allowprerelease", &["prerelease"], SW),
        ],
        positional: &[P::Name],
        act: Act::Install,
    },
    // Microsoft.PowerShell.LocalAccounts, ScheduledTasks, Microsoft.PowerShell.Management.
    Cmdlet {
        names: &["new-localuser"],
        params: &[
            p("name", &[], P::Name),
            p("sid", &[], P::Other),
            p("inputobject", &[], P::Other),
            p("password", &[], P::Other),
            p("nopassword", &[], SW),
            p("description", &[], P::Other),
            p("fullname", &[], P::Other),
            p("accountexpires", &[], P::Other),
            p("accountneverexpires", &[], SW),
            p("disabled", &[], SW),
            p("passwordneverexpires", &[], SW),
            p("usermaynotchangepassword", &[], SW),
        ],
        positional: &[P::Name],
        act: Act::Admin(Admin::NewUser),
    },
    Cmdlet {
        names: &["enable-localuser"],
        params: &[
            p("name", &[], P::Name),
            p("sid", &[], P::Other),
            p("inputobject", &[], P::Other),
        ],
        positional: &[P::Name],
        act: Act::Admin(Admin::EnableUser),
    },
    Cmdlet {
        names: &["add-localgroupmember"],
        params: &[
            p("group", &[], P::Name),
            p("name", &[], P::Name),
            p("sid", &[], P::Other),
            p("member", &[], P::Member),
        ],
        positional: &[P::Name, P::Member],
        act: Act::Admin(Admin::JoinGroup),
    },
    Cmdlet {
        names: &["register-scheduledtask"],
        params: &[
            p("taskname", &[], P::Name),
            p("taskpath", &[], P::Other),
            p("action", &[], P::Other),
            p("trigger", &[], P::Other),
            p("settings", &[], P::Other),
            p("principal", &[], P::Other),
            p("inputobject", &[], P::Other),
            p("xml", &[], P::Other),
            p("user", &[], P::Other),
            p("password", &[], P::Other),
            p("runlevel", &[], P::Other),
            p("description", &[], P::Other),
            p("cimsession", &["session"], P::Other),
            p("force", &[], SW),
        ],
        positional: &[P::Name, P::Other, P::Other, P::Other, P::Other],
        act: Act::Admin(Admin::Task),
    },
    Cmdlet {
        names: &["new-service"],
        params: &[
            p("name", &["servicename"], P::Name),
            p("binarypathname", &["path"], P::Value),
            p("displayname", &[], P::Other),
            p("description", &[], P::Other),
            p("startuptype", &[], P::Other),
            p("credential", &[], P::Other),
            p("dependson", &[], P::Other),
            p("securitydescriptorsddl", &["sd"], P::Other),
        ],
        positional: &[P::Name, P::Value],
        act: Act::Admin(Admin::Service),
    },
    Cmdlet {
        names: &["set-itemproperty", "sp", "new-itemproperty"],
        params: item_params![
            p("name", &["pspropertyname"], P::Name),
            p("value", &[], P::Value),
            p("propertytype", &["type"], P::Other),
            p("inputobject", &[], P::Other),
        ],
        positional: &[P::Path, P::Name, P::Value],
        act: Act::Admin(Admin::Property),
    },
    Cmdlet {
        names: &["remove-itemproperty", "rp"],
        params: item_params![p("name", &["pspropertyname"], P::Name)],
        positional: &[P::Path, P::Name],
        act: Act::Admin(Admin::RemoveProperty),
    },
    // Parameters read by name from the command (`-Disable*`, `-Exclusion*`, `-Enabled`).
    Cmdlet {
        names: &["set-mppreference", "add-mppreference"],
        params: &[],
        positional: &[],
        act: Act::Admin(Admin::Defender),
    },
    Cmdlet {
        names: &["clear-eventlog"],
        params: &[
            p("logname", &["ln"], P::Name),
            p("computername", &["cn"], P::Other),
        ],
        positional: &[P::Name],
        act: Act::Admin(Admin::ClearLog),
    },
    Cmdlet {
        names: &["invoke-wmimethod"],
        params: &[
            p("class", &[], P::ItemType),
            p("name", &[], P::Name),
            p("argumentlist", &["args"], P::Args),
            p("computername", &["cn"], P::Host),
        ],
        positional: &[P::ItemType, P::Name, P::Args],
        act: Act::Admin(Admin::WmiCreate),
    },
    // `Invoke-CimMethod [-ClassName] C [[-Arguments] @{CommandLine=…}] [-MethodName] M`.
    Cmdlet {
        names: &["invoke-cimmethod", "icim"],
        params: &[
            p("classname", &["class"], P::ItemType),
            p("methodname", &["name"], P::Name),
            p("arguments", &[], P::Args),
            p("computername", &["cn"], P::Host),
        ],
        positional: &[P::ItemType, P::Args, P::Name],
        act: Act::Admin(Admin::WmiCreate),
    },
    Cmdlet {
        names: &["disable-netadapter"],
        params: &[
            p("name", &["ifalias", "interfacealias"], P::Name),
            p("interfacedescription", &["ifdesc"], P::Name),
        ],
        positional: &[P::Name],
        act: Act::Admin(Admin::NetAdapter),
    },
    Cmdlet {
        names: &["set-netfirewallprofile"],
        params: &[],
        positional: &[],
        act: Act::Admin(Admin::FirewallProfile),
    },
    Cmdlet {
        names: &[
            "set-acl",
            "set-service",
            "new-scheduledtask",
            "disable-computerrestore",
            "new-netfirewallrule",
            "enable-psremoting",
            "set-item",
            "si",
        ],
        params: &[],
        positional: &[],
        act: Act::System,
    },
    Cmdlet {
        names: &["compress-archive"],
        params: &[
            p("path", &[], P::Path),
            p("literalpath", &["pspath", "lp"], P::Path),
            p("destinationpath", &[], P::Dest),
            p("compressionlevel", &[], P::Other),
            p("update", &[], SW),
            p("force", &[], SW),
            p("passthru", &[], SW),
        ],
        positional: &[P::Path, P::Dest],
        act: Act::Pack,
    },
    Cmdlet {
        names: &["expand-archive"],
        params: &[
            p("path", &[], P::Path),
            p("literalpath", &["pspath", "lp"], P::Path),
            p("destinationpath", &[], P::Dest),
            p("force", &[], SW),
            p("passthru", &[], SW),
        ],
        positional: &[P::Path, P::Dest],
        act: Act::Unpack,
    },
    Cmdlet {
        names: &["add-type"],
        params: &[],
        positional: &[],
        act: Act::Compile,
    },
    Cmdlet {
        names: &["write-output", "echo", "write"],
        params: &[p("inputobject", &[], P::Value), p("noenumerate", &[], SW)],
        positional: &[P::Value],
        act: Act::Output,
    },
    Cmdlet {
        names: &[
            "write-host",
            "write-error",
            "write-warning",
            "write-verbose",
            "write-debug",
            "write-information",
            "write-progress",
            "select-object",
            "select",
            "where-object",
            "where",
            "?",
            "foreach-object",
            "foreach",
            "%",
            "sort-object",
            "sort",
            "measure-object",
            "measure",
            "group-object",
            "group",
            "format-table",
            "ft",
            "format-list",
            "fl",
            "format-wide",
            "fw",
            "out-string",
            "out-null",
            "out-host",
            "oh",
            "out-default",
            "convertto-json",
            "convertfrom-json",
            "convertto-csv",
            "convertfrom-csv",
            "get-member",
            "gm",
            "get-command",
            "gcm",
            "get-help",
            "help",
            "get-location",
            "gl",
            "pwd",
            "pop-location",
            "popd",
            "get-date",
            "get-process",
            "gps",
            "ps",
            "get-service",
            "gsv",
            "start-sleep",
            "sleep",
            "get-alias",
            "gal",
            "get-module",
            "import-module",
            "ipmo",
            "new-object",
            "get-unique",
            "compare-object",
            "compare",
            "diff",
            "get-random",
            "get-host",
            "clear-host",
            "cls",
            "clear",
            "get-psdrive",
            "gdr",
            "get-executionpolicy",
            "test-connection",
            "get-culture",
            "get-uptime",
            "get-computerinfo",
            "join-string",
            "set-strictmode",
            "get-error",
            "exit",
        ],
        params: &[],
        positional: &[],
        act: Act::Pure,
    },
];

/// The cmdlet named `name` (a name or alias, any case; `Module\Name` names it too).
pub(super) fn cmdlet(name: &str) -> Option<&'static Cmdlet> {
    let lower = name.to_ascii_lowercase();
    let bare = lower.rsplit('\\').next().unwrap_or(&lower);
    CMDLETS.iter().find(|c| c.names.contains(&bare))
}

/// The parameter `-name` of `c` names (exactly, by an alias, or by a unique prefix of its
/// name; an ambiguous prefix takes the first), with the common parameters.
pub(super) fn param(c: &'static Cmdlet, name: &str) -> Option<&'static Param> {
    let n = name.to_ascii_lowercase();
    let all = || c.params.iter().chain(COMMON.iter());
    all()
        .find(|x| x.name == n || x.aliases.iter().any(|a| a.eq_ignore_ascii_case(&n)))
        .or_else(|| all().find(|x| !n.is_empty() && x.name.starts_with(&n)))
}
