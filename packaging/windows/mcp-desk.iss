; Inno Setup script for MCP Desk on Windows (.github/workflows/release.yml runs it):
;
;   iscc /DAppVersion=0.1.0 /DSourceDir=DIST\mcp-desk /DOutputDir=OUT packaging\windows\mcp-desk.iss
;
; SourceDir is the folder packaging/windows/mcp-desk-windows.spec builds: mcp-desk.exe (console,
; for the command line), "MCP Desk.exe" (windowed: what the shortcuts, the .mcpb association and
; the mcp-desk: URL scheme start) and _internal\. Installs for the person only by default (no
; administrator needed; Windows asks when they choose all users), into Program Files otherwise.
; The keys, the servers list and the logs live in the person's own folders and the keychain
; (Windows Credential Manager): uninstalling leaves them, as a reinstall should find them.

#ifndef AppVersion
  #error Pass /DAppVersion=X.Y.Z (pyproject.toml's version)
#endif
#ifndef SourceDir
  #error Pass /DSourceDir=the PyInstaller folder
#endif
#ifndef OutputDir
  #define OutputDir "."
#endif
#define AppExe "MCP Desk.exe"

[Setup]
; Never change AppId: it is how an update finds the installed copy.
AppId={{6160B738-5C58-4FE7-A677-44737EBA717F}
AppName=MCP Desk
AppVersion={#AppVersion}
AppVerName=MCP Desk {#AppVersion}
AppPublisher=MCP Desk
DefaultDirName={autopf}\MCP Desk
DefaultGroupName=MCP Desk
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
OutputDir={#OutputDir}
OutputBaseFilename=mcp-desk-{#AppVersion}-windows-x86_64-setup
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName=MCP Desk
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\MCP Desk"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\MCP Desk"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; Server packages (.mcpb, the older .dxt): a double-click opens them in MCP Desk. HKA is the
; person's classes for a per-person install, the machine's for an all-users one.
Root: HKA; Subkey: "Software\Classes\.mcpb"; ValueType: string; ValueName: ""; ValueData: "MCPDesk.ServerPackage"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.mcpb"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-mcpb"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.mcpb\OpenWithProgids"; ValueType: string; ValueName: "MCPDesk.ServerPackage"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.dxt"; ValueType: string; ValueName: ""; ValueData: "MCPDesk.ServerPackage"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.dxt\OpenWithProgids"; ValueType: string; ValueName: "MCPDesk.ServerPackage"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\MCPDesk.ServerPackage"; ValueType: string; ValueName: ""; ValueData: "MCP server package"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\MCPDesk.ServerPackage\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"",0"
Root: HKA; Subkey: "Software\Classes\MCPDesk.ServerPackage\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
; Install links (mcp-desk://...): the browser hands them to MCP Desk.
Root: HKA; Subkey: "Software\Classes\mcp-desk"; ValueType: string; ValueName: ""; ValueData: "URL:MCP Desk install link"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\mcp-desk"; ValueType: string; ValueName: "URL Protocol"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\mcp-desk\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"",0"
Root: HKA; Subkey: "Software\Classes\mcp-desk\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
; "Open with" lists MCP Desk for these types.
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".mcpb"; ValueData: ""; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".dxt"; ValueData: ""

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,MCP Desk}"; Flags: nowait postinstall skipifsilent
