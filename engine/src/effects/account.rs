//! Privilege granted in a cloud account or a cluster: an administrator's role or policy given
//! to someone (`aws iam attach-user-policy --policy-arn …/AdministratorAccess`, `gcloud
//! projects add-iam-policy-binding p --role=roles/owner`, `az role assignment create --role
//! Owner`, `kubectl create clusterrolebinding x --clusterrole=cluster-admin`), and new
//! credentials minted for an identity (`aws iam create-access-key`, `gcloud iam
//! service-accounts keys create`, `az ad sp credential reset`).
//!
//! In: the call's effects (its commands) and the shell environment. Out: a [`What::Grant`]
//! of [`GrantKind::AccountAdmin`] or [`GrantKind::AccountCredentials`] on the command's
//! route. An IAM policy document is read where the CLI reads it: inline JSON, or a
//! `file://` path read as [`text_of`] reads it; it is an administrator's when a statement
//! that does not deny allows every action (`*`, `*:*`) or every IAM action (`iam:*`). Read
//! from the CLIs' references (AWS CLI `iam`, gcloud `add-iam-policy-binding`, az `role
//! assignment create`, kubectl `create clusterrolebinding`) and the providers' lists of
//! predefined administrator roles. Reading roles and policies (`get-*`, `list-*`,
//! `get-iam-policy`), and roles that only read or work on one service, grant nothing here.

use super::documents::text_of;
use super::model::{Effects, Grant, GrantKind, What};
use super::policy_document;
use super::programs::infra::option_values;
use super::scripts::Disk;
use crate::shell::SimpleCommand;
use crate::shell::operands::positionals;
use crate::shell_env::ShellEnv;

/// AWS managed policies that make their holder an administrator of the account or of its
/// identities (the last part of the policy ARN).
const AWS_ADMIN_POLICIES: &[&str] = &[
    "AdministratorAccess",
    "IAMFullAccess",
    "PowerUserAccess",
    "AWSOrganizationsFullAccess",
];

/// Google Cloud basic and predefined roles that administer a project's resources or its
/// identities (`roles/owner`, `roles/editor`, the IAM and resource manager administrators,
/// and the roles that let one act as or mint keys for a service account).
const GCP_ADMIN_ROLES: &[&str] = &[
    "roles/owner",
    "roles/editor",
    "roles/iam.securityAdmin",
    "roles/iam.roleAdmin",
    "roles/iam.organizationRoleAdmin",
    "roles/iam.serviceAccountAdmin",
    "roles/iam.serviceAccountKeyAdmin",
    "roles/iam.serviceAccountTokenCreator",
    "roles/iam.serviceAccountUser",
    "roles/iam.workloadIdentityUser",
    "roles/resourcemanager.projectIamAdmin",
    "roles/resourcemanager.folderAdmin",
    "roles/resourcemanager.folderIamAdmin",
    "roles/resourcemanager.organizationAdmin",
];

/// Azure built-in roles that administer a scope or its access (compared in lower case).
const AZURE_ADMIN_ROLES: &[&str] = &[
    "owner",
    "contributor",
    "user access administrator",
    "role based access control administrator",
    // The built-in role IDs of Owner, Contributor and User Access Administrator.
    "8e3af657-a8ff-443c-a75c-2fe8c4bcb635",
    "b24988ac-6180-42a0-ab88-20f7382dd24c",
    "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9",
];

/// Kubernetes cluster roles that hold every verb on every resource, or the right to grant
/// roles (`admin` of a namespace includes role bindings).
const KUBERNETES_ADMIN_ROLES: &[&str] = &["cluster-admin", "admin", "system:masters"];

/// The privilege grants of the call's commands, one [`What::Grant`] each.
pub(crate) fn account_grants(fx: &mut Effects, env: &ShellEnv) {
    let mut found = Vec::new();
    for (i, e) in fx.list.iter().enumerate() {
        let What::Run(c) = &e.what else { continue };
        if c.dynamic_program {
            continue;
        }
        let document = |t: &str| -> Option<String> {
            match t.strip_prefix("file://") {
                Some(path) => match text_of(&fx.list[..i], path, c, env) {
                    Disk::Text(text) => Some(text),
                    _ => None,
                },
                None => Some(t.to_string()),
            }
        };
        if let Some(g) = grant_of(c, &document) {
            found.push((g, e.route.clone()));
        }
    }
    for (g, route) in found {
        fx.push(What::Grant(g), route);
    }
}

/// The grant `c` makes, if any; `document` gives the text of a policy document argument.
fn grant_of(c: &SimpleCommand, document: &dyn Fn(&str) -> Option<String>) -> Option<Grant> {
    let words: Vec<&str> = positionals(c).iter().map(|a| a.text.as_str()).collect();
    let shown = c.display_words();
    let admin = |what: String| Grant {
        kind: GrantKind::AccountAdmin,
        path: None,
        detail: format!("{what} (`{shown}`)"),
    };
    let credentials = |what: &str| Grant {
        kind: GrantKind::AccountCredentials,
        path: None,
        detail: format!("{what} (`{shown}`)"),
    };
    match (c.basename(), words.as_slice()) {
        ("aws", ["iam", op, ..]) => match *op {
            "attach-user-policy" | "attach-role-policy" | "attach-group-policy" => {
                option_values(c, "--policy-arn")
                    .into_iter()
                    .find(|arn| {
                        let name = arn.rsplit('/').next().unwrap_or(arn);
                        AWS_ADMIN_POLICIES.contains(&name)
                    })
                    .map(|arn| admin(format!("the managed policy {arn}")))
            }
            "put-user-policy"
            | "put-role-policy"
            | "put-group-policy"
            | "create-policy-version"
            | "create-policy" => option_values(c, "--policy-document")
                .into_iter()
                .find(|d| document(d).is_some_and(|t| allows_everything(&t)))
                .map(|_| admin("a policy that allows every action".to_string())),
            "create-access-key"
            | "create-login-profile"
            | "update-login-profile"
            | "create-service-specific-credential" => {
                Some(credentials("new credentials for an IAM user"))
            }
            _ => None,
        },
        ("gcloud", _) if words.contains(&"add-iam-policy-binding") => option_values(c, "--role")
            .into_iter()
            .find(|r| GCP_ADMIN_ROLES.contains(r))
            .map(|r| admin(format!("the role {r}"))),
        ("gcloud", ["iam", "service-accounts", "keys", "create", ..]) => {
            Some(credentials("a new key for a service account"))
        }
        ("az", ["role", "assignment", "create", ..]) => option_values(c, "--role")
            .into_iter()
            .find(|r| AZURE_ADMIN_ROLES.contains(&r.to_ascii_lowercase().as_str()))
            .map(|r| admin(format!("the role {r}"))),
        ("az", ["ad", "sp" | "app", "credential", "reset", ..])
        | ("az", ["ad", "sp", "create-for-rbac", ..]) => {
            Some(credentials("new credentials for a service principal"))
        }
        ("kubectl" | "oc", ["create", "clusterrolebinding" | "rolebinding", ..]) => {
            option_values(c, "--clusterrole")
                .into_iter()
                .chain(option_values(c, "--role"))
                .find(|r| KUBERNETES_ADMIN_ROLES.contains(r))
                .map(|r| admin(format!("the role {r}")))
        }
        ("kubectl" | "oc", ["adm", "policy", "add-cluster-role-to-user", role, ..])
            if KUBERNETES_ADMIN_ROLES.contains(role) =>
        {
            Some(admin(format!("the cluster role {role}")))
        }
        _ => None,
    }
}

/// Whether an IAM policy document (JSON) has a statement that does not deny and allows every
/// action (`"Action": "*"`, `"*:*"`, `"iam:*"`, in a list or alone).
fn allows_everything(doc: &str) -> bool {
    policy_document::allowing(doc).is_some_and(|list| {
        list.iter().any(|s| {
            s.strings("Action")
                .iter()
                .any(|a| matches!(*a, "*" | "*:*" | "iam:*"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::{BrushAnalyzer, ShellAnalyzer};

    fn grant(line: &str) -> Option<(GrantKind, String)> {
        let a = BrushAnalyzer.analyze(line, None);
        let c = a.commands.first()?;
        grant_of(c, &|t: &str| Some(t.to_string())).map(|g| (g.kind, g.detail))
    }

    #[test]
    fn administrator_roles_and_policies() {
        for line in [
            "aws iam attach-user-policy --user-name dev --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
            "aws --profile prod iam attach-role-policy --role-name ci --policy-arn=arn:aws:iam::aws:policy/IAMFullAccess",
            r#"aws iam put-user-policy --user-name x --policy-name p --policy-document '{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}'"#,
            r#"aws iam put-role-policy --role-name r --policy-name p --policy-document '{"Statement":[{"Effect":"Allow","Action":["s3:GetObject","iam:*"],"Resource":"*"}]}'"#,
            "gcloud projects add-iam-policy-binding my-proj --member=user:x@evil.example --role=roles/owner",
            "gcloud iam service-accounts add-iam-policy-binding sa@p.iam.gserviceaccount.com --member=user:x@y.z --role roles/iam.serviceAccountTokenCreator",
            "az role assignment create --assignee x@y.z --role Owner --scope /subscriptions/1",
            "az role assignment create --assignee x --role 'User Access Administrator'",
            "kubectl create clusterrolebinding pwn --clusterrole=cluster-admin --serviceaccount=default:default",
            "kubectl -n prod create rolebinding x --clusterrole admin --user me",
            "oc adm policy add-cluster-role-to-user cluster-admin me",
        ] {
            let g = grant(line);
            assert_eq!(
                g.as_ref().map(|g| g.0),
                Some(GrantKind::AccountAdmin),
                "{line}: {g:?}"
            );
        }
    }

    #[test]
    fn new_credentials() {
        for line in [
            "aws iam create-access-key --user-name admin",
            "aws iam create-login-profile --user-name x --password P4ss",
            "gcloud iam service-accounts keys create key.json --iam-account sa@p.iam.gserviceaccount.com",
            "az ad sp credential reset --id 0000",
            "az ad sp create-for-rbac --name ci",
        ] {
            assert_eq!(
                grant(line).map(|g| g.0),
                Some(GrantKind::AccountCredentials),
                "{line}"
            );
        }
    }

    #[test]
    fn reading_and_narrow_roles_grant_nothing() {
        for line in [
            "aws iam list-attached-user-policies --user-name dev",
            "aws iam get-policy --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
            "aws iam attach-role-policy --role-name ci --policy-arn arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess",
            r#"aws iam put-role-policy --role-name r --policy-name p --policy-document '{"Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}'"#,
            r#"aws iam put-role-policy --role-name r --policy-name p --policy-document '{"Statement":[{"Effect":"Deny","Action":"*","Resource":"*"}]}'"#,
            "gcloud projects get-iam-policy my-proj",
            "gcloud projects add-iam-policy-binding p --member=serviceAccount:ci@p.iam.gserviceaccount.com --role=roles/storage.objectViewer",
            "az role assignment create --assignee x --role Reader",
            "az role assignment list --assignee x",
            "kubectl create rolebinding dev-view --clusterrole=view --user=dev -n dev",
            "kubectl get clusterrolebindings",
            "kubectl create token default",
        ] {
            assert_eq!(grant(line), None, "{line}");
        }
    }
}
