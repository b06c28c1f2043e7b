//! The cloud command model, from the CLIs' references: destroying operations and the
//! everyday ones that must stay quiet.

use super::{Files, destroys, destroys_reading};
use crate::shell::{BrushAnalyzer, ShellAnalyzer};

/// `cli service operation` of what the first command of `line` destroys, or `None`.
fn destroyed(line: &str) -> Option<String> {
    let a = BrushAnalyzer.analyze(line, None);
    let c = a.commands.first().expect("a command");
    destroys(c).map(|d| {
        let targets: Vec<&str> = d.targets.iter().map(|a| a.text.as_str()).collect();
        format!(
            "{}|{}|{}|{}",
            d.cli,
            d.service,
            d.operation,
            targets.join(" ")
        )
    })
}

#[test]
fn aws_operations_that_destroy() {
    for (line, want) in [
        (
            "aws ec2 terminate-instances --instance-ids i-1",
            "aws|ec2|terminate-instances|i-1",
        ),
        (
            "aws --profile prod rds delete-db-instance --db-instance-identifier db --skip-final-snapshot",
            "aws|rds|delete-db-instance|db",
        ),
        ("aws s3 rb s3://b --force", "aws|s3|rb|s3://b"),
        ("aws s3 rm s3://b --recursive", "aws|s3|rm|s3://b"),
        (
            "aws s3 sync ./site s3://b --delete",
            "aws|s3|sync|./site s3://b",
        ),
        (
            "aws cloudformation delete-stack --stack-name web",
            "aws|cloudformation|delete-stack|web",
        ),
        (
            "aws kms schedule-key-deletion --key-id k",
            "aws|kms|schedule-key-deletion|k",
        ),
        (
            "aws ecr batch-delete-image --repository-name r --image-ids imageTag=x",
            "aws|ecr|batch-delete-image|r imageTag=x",
        ),
    ] {
        assert_eq!(destroyed(line).as_deref(), Some(want), "{line}");
    }
}

#[test]
fn gcloud_az_and_others_by_their_command_path() {
    for (line, want) in [
        (
            "gcloud compute instances delete vm1 --zone us-east1-b",
            "gcloud|compute instances|delete|vm1 us-east1-b",
        ),
        (
            "gcloud beta sql instances delete db -q",
            "gcloud|sql instances|delete|db",
        ),
        ("gcloud projects delete p1", "gcloud|projects|delete|p1"),
        ("gcloud storage rm -r gs://b", "gcloud|storage|rm|gs://b"),
        ("gsutil -m rm -r gs://b", "gsutil||rm|gs://b"),
        ("az group delete -n rg --yes", "az|group|delete|rg"),
        ("az keyvault purge --name kv", "az|keyvault|purge|kv"),
        (
            "kubectl --context prod delete ns payments",
            "kubectl|ns|delete|payments",
        ),
        (
            "kubectl delete deployment web -n prod",
            "kubectl|deployment|delete|web",
        ),
        ("kubectl delete -f app.yaml", "kubectl||delete|app.yaml"),
        ("kubectl delete pods --all -n prod", "kubectl|pods|delete|"),
        ("kubectl drain node-1 --force", "kubectl||drain|node-1"),
        (
            "kubectl replace --force -f app.yaml",
            "kubectl||replace|app.yaml",
        ),
        ("helm -n prod uninstall web", "helm||uninstall|web"),
        ("terraform destroy -auto-approve", "terraform||destroy|"),
        ("terraform -chdir=infra apply -destroy", "terraform||apply|"),
        (
            "terraform state rm aws_instance.web",
            "terraform|state|rm|aws_instance.web",
        ),
        ("terragrunt run-all destroy", "terragrunt|run-all|destroy|"),
        ("pulumi destroy --yes", "pulumi||destroy|"),
        ("pulumi stack rm dev", "pulumi|stack|rm|dev"),
        (
            "doctl compute droplet delete web",
            "doctl|compute droplet|delete|web",
        ),
        ("flyctl apps destroy app", "flyctl|apps|destroy|app"),
        ("heroku apps:destroy -a app", "heroku|apps|destroy|app"),
        ("heroku pg:reset DATABASE", "heroku|pg|reset|DATABASE"),
        (
            "firebase firestore:delete --all-collections",
            "firebase|firestore|delete|",
        ),
        ("vercel remove app --yes", "vercel||remove|app"),
        ("gh repo delete o/r --yes", "gh|repo|delete|o/r"),
        ("supabase db reset", "supabase|db|reset|"),
        ("dropdb app", "dropdb||dropdb|app"),
        (
            "kubectl delete ns payments --dry-run=none",
            "kubectl|ns|delete|payments",
        ),
        ("mysqladmin -u root drop app", "mysqladmin||drop|app"),
        (
            "gh api -X DELETE repos/acme/api",
            "gh||api|DELETE repos/acme/api",
        ),
        (
            "gh api --method=delete repos/acme/api",
            "gh||api|repos/acme/api",
        ),
        (
            "eksctl delete cluster --name prod",
            "eksctl||delete|cluster prod",
        ),
        ("wrangler d1 delete app-db", "wrangler|d1|delete|app-db"),
        (
            "rclone purge remote:backups",
            "rclone||purge|remote:backups",
        ),
        ("s3cmd del --recursive s3://b", "s3cmd||del|s3://b"),
    ] {
        assert_eq!(destroyed(line).as_deref(), Some(want), "{line}");
    }
}

#[test]
fn reading_creating_and_routine_operations_destroy_nothing() {
    for line in [
        "aws ec2 describe-instances",
        "aws s3 ls s3://b",
        "aws s3 rm s3://b/one.txt",
        "aws s3 sync ./site s3://b",
        "aws s3 sync s3://b/ ./local --delete",
        "aws ec2 run-instances --image-id ami-1",
        "aws logs get-log-events --log-group-name g",
        "gcloud compute instances list",
        "gcloud compute instances describe vm1",
        "gcloud compute instances create vm1",
        "gcloud storage rm gs://b/one.txt",
        "az vm list -o table",
        "az group create -n rg -l westeurope",
        "kubectl get pods -n prod",
        "kubectl describe deploy web",
        "kubectl logs web-1",
        "kubectl delete pod web-1",
        "kubectl delete pod/web-1 -n prod",
        "kubectl apply -f app.yaml",
        "kubectl replace -f app.yaml",
        "helm list -A",
        "helm status web",
        "helm upgrade --install web ./chart",
        "terraform plan",
        "terraform apply",
        "terraform state list",
        "pulumi up",
        "pulumi stack ls",
        "gh pr list",
        "gh repo view o/r",
        "heroku logs --tail",
        "firebase deploy --only hosting",
        "supabase db push",
        "vercel deploy --prod",
        "fly deploy",
        "doctl compute droplet list",
        "gh api repos/acme/api",
        "gh api -X POST repos/acme/api/issues -f title=x",
        "eksctl get cluster",
        "rclone copy ./site remote:site",
        "s3cmd ls s3://b",
        "kubectl delete ns payments --dry-run=client -o yaml",
        "kubectl delete --help",
        "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
        "aws s3 rm s3://b --recursive --dryrun",
        "aws ec2 terminate-instances help",
    ] {
        assert_eq!(destroyed(line), None, "{line}");
    }
}

#[test]
fn operations_that_change_expose_or_stop_a_live_service() {
    for (line, want) in [
        // AWS CLI reference: route53 change-resource-record-sets (CREATE, DELETE, UPSERT).
        (
            "aws route53 change-resource-record-sets --hosted-zone-id Z1 --change-batch file://c.json",
            "aws|route53|change-resource-record-sets",
        ),
        (
            r#"aws s3api put-bucket-policy --bucket b --policy '{"Statement":[{"Effect":"Allow","Principal": "*","Action":"s3:GetObject"}]}'"#,
            "aws|s3api|put-bucket-policy",
        ),
        (
            r#"aws s3api put-bucket-policy --bucket b --policy '{"Statement":[{"Principal":{"AWS":"*"}}]}'"#,
            "aws|s3api|put-bucket-policy",
        ),
        (
            "aws s3api put-bucket-acl --bucket b --acl public-read-write",
            "aws|s3api|put-bucket-acl",
        ),
        (
            "aws s3api put-bucket-acl --bucket b --grant-read uri=http://acs.amazonaws.com/groups/global/AllUsers",
            "aws|s3api|put-bucket-acl",
        ),
        (
            "aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicPolicy=false",
            "aws|s3api|put-public-access-block",
        ),
        (
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 22 --cidr=0.0.0.0/0",
            "aws|ec2|authorize-security-group-ingress",
        ),
        (
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions 'IpProtocol=tcp,FromPort=22,ToPort=22,Ipv6Ranges=[{CidrIpv6=::/0}]'",
            "aws|ec2|authorize-security-group-ingress",
        ),
        (
            "gcloud compute firewall-rules create ssh --allow tcp:22 --source-ranges 0.0.0.0/0",
            "gcloud|compute firewall-rules|create",
        ),
        (
            "gcloud storage buckets add-iam-policy-binding gs://b --member=allUsers --role=roles/storage.objectViewer",
            "gcloud|storage buckets|add-iam-policy-binding",
        ),
        (
            "az network nsg rule create -g rg --nsg-name n -n ssh --priority 100 --source-address-prefixes Internet",
            "az|network nsg rule|create",
        ),
        (
            "kubectl scale deploy --all --replicas=0 -n prod",
            "kubectl||scale",
        ),
        (
            "kubectl scale statefulset db --replicas 0",
            "kubectl||scale",
        ),
        (
            r#"kubectl patch deploy api -p '{"spec": {"replicas": 0}}'"#,
            "kubectl||patch",
        ),
        ("kubectl apply --prune --all -f empty/", "kubectl||apply"),
        ("kubectl rollout undo deploy/api", "kubectl|rollout|undo"),
        ("kubectl cordon node-1", "kubectl||cordon"),
        ("helm rollback web 1 -n prod", "helm||rollback"),
        ("etcdctl del '' --prefix", "etcdctl||del"),
    ] {
        let got =
            destroyed(line).and_then(|d| d.rsplit_once('|').map(|(head, _)| head.to_string()));
        assert_eq!(got.as_deref(), Some(want), "{line}");
    }
}

#[test]
fn private_rules_and_other_replica_counts_stay_quiet() {
    for line in [
        "aws s3api get-bucket-policy --bucket x",
        "aws s3api put-bucket-acl --bucket b --acl private",
        "aws s3api put-public-access-block --bucket b --public-access-block-configuration BlockPublicAcls=true,BlockPublicPolicy=true",
        "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 443 --cidr 10.0.0.0/16",
        "aws ec2 describe-security-groups",
        "gcloud compute firewall-rules create int --allow tcp:22 --source-ranges=10.0.0.0/8",
        "gcloud compute firewall-rules list",
        "az network nsg rule create -g rg --nsg-name n -n r --priority 100 --source-address-prefixes 10.0.0.0/8",
        "kubectl scale deploy api --replicas=3 -n dev",
        "kubectl scale deploy api --replicas=10",
        r#"kubectl patch deploy api -p '{"spec":{"replicas":10}}'"#,
        "kubectl apply -f k8s/",
        "kubectl rollout status deploy/api",
        "kubectl rollout restart deploy/api",
        "kubectl rollout history deploy/api",
        "kubectl uncordon node-1",
        "helm history web",
        "etcdctl get '' --prefix --keys-only",
        "etcdctl put k v",
    ] {
        assert_eq!(destroyed(line), None, "{line}");
    }
}

/// `cli|service|operation` of what the first command of `line` destroys, its documents read
/// from `files` (path, text); a path not there cannot be read.
fn destroyed_reading(line: &str, files: &[(&str, &str)]) -> (Option<String>, Vec<String>) {
    let a = BrushAnalyzer.analyze(line, None);
    let c = a.commands.first().expect("a command");
    let read = |p: &str| {
        files
            .iter()
            .find(|(name, _)| *name == p)
            .map(|(_, text)| (*text).to_string())
            .ok_or_else(|| format!("`{p}` is not there"))
    };
    let files = Files {
        read: &read,
        problems: Default::default(),
    };
    let got =
        destroys_reading(c, &files).map(|d| format!("{}|{}|{}", d.cli, d.service, d.operation));
    (got, files.problems.into_inner())
}

/// An S3 bucket policy granting `s3:GetObject` to `principal` (a JSON value).
fn bucket_policy(effect: &str, principal: &str) -> String {
    format!(
        r#"{{"Version":"2012-10-17","Statement":[{{"Effect":"{effect}","Principal":{principal},"Action":"s3:GetObject","Resource":"arn:aws:s3:::b/*"}}]}}"#
    )
}

#[test]
fn bucket_policies_read_from_files_are_judged_as_inline_ones() {
    // AWS CLI: a parameter value `file://PATH` (`fileb://` for binary) is the file's content,
    // read when the command runs; IAM policy grammar: `"Principal": "*"` and `{"AWS": "*"}`
    // are everyone.
    let line = "aws s3api put-bucket-policy --bucket b --policy file://policy.json";
    for principal in [
        r#""*""#,
        r#"{"AWS":"*"}"#,
        r#"{"AWS":["arn:aws:iam::1:root","*"]}"#,
    ] {
        let doc = bucket_policy("Allow", principal);
        let (got, problems) = destroyed_reading(line, &[("policy.json", &doc)]);
        assert_eq!(
            got.as_deref(),
            Some("aws|s3api|put-bucket-policy"),
            "{principal}"
        );
        assert!(problems.is_empty());
    }
    let fileb = "aws s3api put-bucket-policy --bucket b --policy fileb://p.json";
    let doc = bucket_policy("Allow", r#""*""#);
    assert!(destroyed_reading(fileb, &[("p.json", &doc)]).0.is_some());
    // One account, or a deny for everyone: nothing public.
    for (effect, principal) in [
        ("Allow", r#"{"AWS":"arn:aws:iam::123456789012:root"}"#),
        ("Deny", r#""*""#),
    ] {
        let doc = bucket_policy(effect, principal);
        let (got, problems) = destroyed_reading(line, &[("policy.json", &doc)]);
        assert_eq!(got, None, "{effect} {principal}");
        assert!(problems.is_empty());
    }
    // Inline, the same document is judged the same way.
    let inline = format!(
        "aws s3api put-bucket-policy --bucket b --policy '{}'",
        bucket_policy("Deny", r#""*""#)
    );
    assert_eq!(destroyed(&inline), None);
    // A file that cannot be read is a problem the caller names, not a pass.
    let (got, problems) = destroyed_reading(line, &[]);
    assert_eq!(got, None);
    assert_eq!(problems, vec!["`policy.json` is not there".to_string()]);
    // Other services' resource policies, and an ACL document naming the AllUsers group.
    let acl = r#"{"Grants":[{"Grantee":{"Type":"Group","URI":"http://acs.amazonaws.com/groups/global/AllUsers"},"Permission":"READ"}],"Owner":{"ID":"o"}}"#;
    for (line, file, text) in [
        (
            "aws ecr set-repository-policy --repository-name r --policy-text file://p.json",
            "p.json",
            doc.as_str(),
        ),
        (
            "aws kms put-key-policy --key-id k --policy-name default --policy file://p.json",
            "p.json",
            doc.as_str(),
        ),
        (
            "aws iam update-assume-role-policy --role-name r --policy-document file://p.json",
            "p.json",
            doc.as_str(),
        ),
        (
            "aws s3api put-bucket-acl --bucket b --access-control-policy file://acl.json",
            "acl.json",
            acl,
        ),
    ] {
        assert!(
            destroyed_reading(line, &[(file, text)]).0.is_some(),
            "{line}"
        );
    }
    assert!(
        destroyed(
            "aws lambda add-permission --function-name f --statement-id s --principal '*' --action lambda:InvokeFunction"
        )
        .is_some()
    );
    assert_eq!(
        destroyed(
            "aws lambda add-permission --function-name f --statement-id s --principal s3.amazonaws.com --action lambda:InvokeFunction"
        ),
        None
    );
    // Another operation's file is not read.
    let (_, problems) = destroyed_reading("aws s3 cp file://x.json s3://b/x.json", &[]);
    assert!(problems.is_empty());
}

#[test]
fn everyone_granted_by_gsutil_gcloud_and_az() {
    // gsutil iam ch MEMBER:ROLE, `-d` removes; gsutil acl ch -u|-g ENTITY:PERM; gsutil acl
    // set CANNED_ACL; gcloud … add-iam-policy-binding --member; az storage container
    // set-permission|create --public-access off|blob|container.
    for (line, want) in [
        (
            "gsutil iam ch allUsers:objectViewer gs://prod-data",
            "gsutil|iam|ch",
        ),
        (
            "gsutil -m iam ch allAuthenticatedUsers:objectViewer gs://b",
            "gsutil|iam|ch",
        ),
        ("gsutil acl ch -u AllUsers:R gs://b", "gsutil|acl|ch"),
        ("gsutil acl set public-read gs://b", "gsutil|acl|set"),
        ("gsutil defacl set public-read gs://b", "gsutil|defacl|set"),
        (
            "gcloud run services add-iam-policy-binding api --member=allUsers --role=roles/run.invoker",
            "gcloud|run services|add-iam-policy-binding",
        ),
        (
            "az storage container set-permission -n c --public-access blob",
            "az|storage container|set-permission",
        ),
        (
            "az storage container create -n c --public-access container",
            "az|storage container|create",
        ),
        (
            "az storage account update -n a --allow-blob-public-access true",
            "az|storage account|update",
        ),
        (
            "az storage account create -n a -g rg --allow-blob-public-access true",
            "az|storage account|create",
        ),
    ] {
        let got =
            destroyed(line).and_then(|d| d.rsplit_once('|').map(|(head, _)| head.to_string()));
        assert_eq!(got.as_deref(), Some(want), "{line}");
    }
    for line in [
        "gsutil iam ch user:me@x.com:objectViewer gs://b",
        "gsutil iam ch -d allUsers gs://b",
        "gsutil iam get gs://b",
        "gsutil acl set private gs://b",
        "gsutil cp a.txt gs://b/",
        "az storage container set-permission -n c --public-access off",
        "az storage container create -n c",
        "az storage account update -n a --allow-blob-public-access false",
    ] {
        assert_eq!(destroyed(line), None, "{line}");
    }
}

#[test]
fn policy_files_named_as_operands() {
    // gcloud … set-iam-policy RESOURCE POLICY_FILE (JSON or YAML); gsutil iam set FILE URL.
    let public = "bindings:\n- members:\n  - allUsers\n  role: roles/storage.objectViewer\n";
    let private = "bindings:\n- members:\n  - user:me@x.com\n  role: roles/viewer\n";
    for line in [
        "gcloud projects set-iam-policy p policy.yaml",
        "gsutil iam set policy.yaml gs://b",
    ] {
        assert!(
            destroyed_reading(line, &[("policy.yaml", public)])
                .0
                .is_some(),
            "{line}"
        );
        assert_eq!(
            destroyed_reading(line, &[("policy.yaml", private)]).0,
            None,
            "{line}"
        );
        let (got, problems) = destroyed_reading(line, &[]);
        assert_eq!(got, None);
        assert_eq!(problems.len(), 1, "{line}");
    }
}

#[test]
fn data_stores_schedulers_and_migration_tools_that_destroy() {
    for (line, want) in [
        ("s5cmd rm 's3://prod/*'", "s5cmd||rm|s3://prod/*"),
        (
            "s5cmd --endpoint-url https://minio.local rm 's3://b/**'",
            "s5cmd||rm|s3://b/**",
        ),
        ("s5cmd rb s3://b", "s5cmd||rb|s3://b"),
        ("nomad job stop -purge -yes api", "nomad|job|job stop|api"),
        (
            "nomad job stop -address https://n:4646 -purge api",
            "nomad|job|job stop|api",
        ),
        (
            "nomad namespace delete payments",
            "nomad|namespace|delete|payments",
        ),
        ("influx bucket delete -n prod", "influx|bucket|delete|prod"),
        (
            "influx delete --bucket prod --start 1970-01-01T00:00:00Z --stop 2030-01-01T00:00:00Z",
            "influx||delete|prod 1970-01-01T00:00:00Z 2030-01-01T00:00:00Z",
        ),
        (
            "redis-cli FLUSHALL",
            "redis-cli|every key of the server|flushall|",
        ),
        (
            "redis-cli -n 0 FLUSHDB ASYNC",
            "redis-cli|every key of the database|flushdb|",
        ),
        (
            "redis-cli -h 127.0.0.1 -p 6380 flushdb",
            "redis-cli|every key of the database|flushdb|",
        ),
        (
            "knex migrate:rollback --all",
            "knex|every migration of the database|migrate:rollback|",
        ),
        (
            "knex --env production migrate:rollback --all",
            "knex|every migration of the database|migrate:rollback|",
        ),
        (
            "sequelize-cli db:migrate:undo:all",
            "sequelize-cli|the database|db:migrate:undo:all|",
        ),
        ("sequelize db:drop", "sequelize|the database|db:drop|"),
        ("rails db:drop", "rails|the database|db:drop|"),
        ("bin/rails db:reset", "rails|the database|db:reset|"),
        (
            "rake db:migrate:reset",
            "rake|the database|db:migrate:reset|",
        ),
        (
            "typeorm schema:drop -d ds.ts",
            "typeorm|the database|schema:drop|ds.ts",
        ),
        (
            "prisma migrate reset --force",
            "prisma|the database|migrate reset|",
        ),
        (
            "prisma db push --force-reset",
            "prisma|the database|db push|",
        ),
        (
            "python manage.py flush --noinput",
            "manage.py|the database|flush|",
        ),
        (
            "python3 ./manage.py reset_db",
            "manage.py|the database|reset_db|",
        ),
        (
            "php artisan migrate:fresh --seed",
            "artisan|the database|migrate:fresh|",
        ),
        ("django-admin flush", "django-admin|the database|flush|"),
        (
            "alembic downgrade base",
            "alembic|every migration of the database|downgrade|base",
        ),
        (
            "alembic -c alembic.ini downgrade base",
            "alembic|every migration of the database|downgrade|base",
        ),
        (
            "flask db downgrade base",
            "flask|every migration of the database|db downgrade|base",
        ),
        ("flyway clean", "flyway|the database|clean|"),
        ("liquibase drop-all", "liquibase|the database|drop-all|"),
        ("dbmate drop", "dbmate|the database|drop|"),
        ("rails db:schema:load", "rails|the database|db:schema:load|"),
        (
            "goose reset",
            "goose|every migration of the database|reset|",
        ),
        (
            "goose -dir db/migrations down-to 0",
            "goose|every migration of the database|down-to|0",
        ),
        ("mix ecto.drop", "mix|the database|ecto.drop|"),
        ("mix ecto.rollback --all", "mix|the database|ecto.rollback|"),
        ("nomad job scale api 00", "nomad|job|job scale|api 00"),
        ("nomad job scale api +0", "nomad|job|job scale|api +0"),
        (
            "pnpm -C api prisma migrate reset",
            "prisma|the database|migrate reset|",
        ),
        (
            "pnpm -w prisma db push --accept-data-loss",
            "prisma|the database|db push|",
        ),
        (
            "yarn workspace api prisma migrate reset",
            "prisma|the database|migrate reset|",
        ),
        (
            "yarn --cwd api prisma migrate reset",
            "prisma|the database|migrate reset|",
        ),
    ] {
        assert_eq!(destroyed(line).as_deref(), Some(want), "{line}");
    }
}

/// `cli operation` of what the command `xargs` runs in `line` destroys, or `None`.
fn destroyed_by_xargs(line: &str) -> Option<String> {
    let a = BrushAnalyzer.analyze(line, None);
    let c = a
        .commands
        .iter()
        .find(|c| c.via.iter().any(|v| v.starts_with("xargs")))?;
    destroys(c).map(|d| format!("{} {}", d.cli, d.operation))
}

#[test]
fn keys_a_listing_feeds_to_a_delete_are_every_key() {
    assert_eq!(
        destroyed_by_xargs("redis-cli --scan --pattern '*' | xargs redis-cli del").as_deref(),
        Some("redis-cli del")
    );
    assert_eq!(
        destroyed_by_xargs("redis-cli KEYS 'u:*' | xargs -n 100 redis-cli -h prod UNLINK")
            .as_deref(),
        Some("redis-cli unlink")
    );
    assert_eq!(
        destroyed_by_xargs("redis-cli --scan | xargs redis-cli type"),
        None
    );
    assert_eq!(destroyed("redis-cli del session:1"), None);
}

#[test]
fn a_redis_command_only_known_at_run_time_is_named() {
    let why = |line: &str| {
        let a = BrushAnalyzer.analyze(line, None);
        a.commands.iter().find_map(super::unknown_command)
    };
    assert_eq!(
        why("redis-cli -h prod $(echo FLUSHALL)").as_deref(),
        Some(
            "the command `redis-cli` sends its server (`redis-cli -h prod $(…)`) is only known at run time"
        )
    );
    assert_eq!(why("redis-cli GET \"$KEY\""), None);
    assert_eq!(why("redis-cli --cluster call h:1 INFO"), None);
    assert_eq!(why("redis-cli < cmds.txt"), None);
    assert_eq!(
        destroyed("redis-cli --cluster call h:6379 FLUSHALL").as_deref(),
        Some("redis-cli|every key of the server|flushall|")
    );
    assert_eq!(destroyed("redis-cli --cluster info h:6379"), None);
}

/// Everyday commands of the data stores, schedulers and migration tools.
const EVERYDAY_DATA: &[&str] = &[
    "s5cmd ls s3://b/",
    "s5cmd cp 'dist/*' s3://site/",
    "s5cmd --endpoint-url https://minio.local cat s3://b/x.json",
    "nomad job status api",
    "nomad job plan api.nomad",
    "nomad job scale api 3",
    "nomad job scale api",
    "nomad alloc stop 8c2f1a",
    "nomad job run api.nomad",
    "influx bucket list",
    "influx bucket create -n dev",
    "influx query 'from(bucket:\"b\")'",
    "redis-cli GET k",
    "redis-cli INFO",
    "redis-cli -n 2 KEYS 'user:*'",
    "redis-cli CONFIG GET requirepass",
    "redis-cli CONFIG SET maxmemory 2gb",
    "redis-cli SET k v",
    "redis-cli DEL key",
    "redis-cli SHUTDOWN ABORT",
    "redis-cli EVAL \"return redis.call('get', KEYS[1])\" 1 k",
    "echo PING | redis-cli -h prod",
    "printf 'GET a\\nTTL a\\n' | redis-cli",
    "knex migrate:rollback",
    "knex migrate:latest",
    "sequelize-cli db:migrate:undo",
    "sequelize-cli db:migrate",
    "rails db:migrate",
    "rails db:rollback",
    "rails assets:precompile",
    "prisma migrate dev",
    "prisma migrate status",
    "prisma db push",
    "pnpm prisma generate",
    "yarn prisma migrate dev",
    "pnpm test",
    "yarn build",
    "pnpm install",
    "pnpm run prisma",
    "yarn run build",
    "python manage.py migrate",
    "python manage.py migrate app 0003",
    "python3 manage.py migrate payments zero_downtime",
    "python -m django runserver",
    "python -m django check",
    "python manage.py runserver",
    "python other.py flush",
    "php artisan migrate",
    "alembic downgrade -1",
    "alembic upgrade head",
    "alembic history",
    "flask run",
    "flyway migrate",
    "dbmate up",
    "nomad job scale api 10",
    "nomad job scale api 0.0",
    "pnpm -C web build",
    "pnpm --filter web dev",
    "pnpm -w prisma generate",
    "yarn workspace web test",
    "goose up",
    "goose down",
    "goose down-to 20240101",
    "mix ecto.migrate",
    "mix ecto.rollback",
    "mix test",
    "python manage.py migrate app zero --fake",
];

#[test]
fn everyday_data_store_and_migration_commands_destroy_nothing() {
    let destroying: Vec<&str> = EVERYDAY_DATA
        .iter()
        .copied()
        .filter(|line| destroyed(line).is_some())
        .collect();
    assert_eq!(destroying, Vec::<&str>::new());
}

#[test]
fn live_servers_stopped_opened_or_emptied_and_jobs_stopped() {
    let cases = [
        (
            "redis-cli -h prod SHUTDOWN NOSAVE",
            "redis-cli|the server|shutdown|",
        ),
        (
            "redis-cli -u redis://prod:6379 shutdown",
            "redis-cli|the server|shutdown|",
        ),
        (
            "redis-cli FLUSHALL ASYNC",
            "redis-cli|every key of the server|flushall|",
        ),
        (
            "redis-cli CONFIG SET requirepass \"\"",
            "redis-cli|the server's password (requirepass)|config set|",
        ),
        (
            "valkey-cli config set protected-mode no",
            "valkey-cli|the server's protected mode|config set|",
        ),
        (
            "redis-cli ACL SETUSER default on nopass",
            "redis-cli|the user|acl setuser|default",
        ),
        (
            "redis-cli EVAL \"return redis.call('flushall')\" 0",
            "redis-cli|every key of the server|flushall|",
        ),
        ("nomad job stop api", "nomad|job|job stop|api"),
        ("nomad job stop -detach web", "nomad|job|job stop|web"),
        ("nomad job scale -detach web 0", "nomad|job|job scale|web 0"),
        (
            "nomad operator raft remove-peer -peer-address=10.0.0.3:4647",
            "nomad|a server of the cluster|operator raft remove-peer|",
        ),
        (
            "pnpm prisma migrate reset --force",
            "prisma|the database|migrate reset|",
        ),
        (
            "yarn knex migrate:rollback --all",
            "knex|every migration of the database|migrate:rollback|",
        ),
        (
            "bun prisma db push --accept-data-loss",
            "prisma|the database|db push|",
        ),
        (
            "yarn run knex migrate:rollback --all",
            "knex|every migration of the database|migrate:rollback|",
        ),
        (
            "python3 manage.py migrate payments zero",
            "manage.py|every migration of|migrate|payments zero",
        ),
        (
            "python -m django flush --noinput",
            "django-admin|the database|flush|",
        ),
    ];
    // Every line judged, all compared at once: a failure shows each line's judgement.
    let got: Vec<(&str, Option<String>)> = cases.iter().map(|(l, _)| (*l, destroyed(l))).collect();
    let want: Vec<(&str, Option<String>)> = cases
        .iter()
        .map(|(l, w)| (*l, Some((*w).to_string())))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn commands_fed_on_standard_input_or_read_from_files() {
    for (line, want) in [
        ("echo FLUSHALL | redis-cli -h prod", "flushall"),
        (
            "redis-cli -h prod <<EOF\nSET a 1\nSHUTDOWN\nEOF",
            "shutdown",
        ),
        ("redis-cli <<< 'CONFIG SET protected-mode no'", "config set"),
    ] {
        let a = BrushAnalyzer.analyze(line, None);
        let c = a.commands.last().expect("a command");
        let got = destroys(c).map(|d| d.operation);
        assert_eq!(got.as_deref(), Some(want), "{line}");
    }
    let files = [
        ("cmds.txt", "GET a\nFLUSHDB\n"),
        ("ok.txt", "GET a\nINFO\n"),
        ("wipe.lua", "return redis.call('FLUSHALL')"),
        ("get.lua", "return redis.call('GET', KEYS[1])"),
    ];
    let judged = |line| destroyed_reading(line, &files);
    assert_eq!(
        judged("redis-cli -h prod < cmds.txt"),
        (
            Some("redis-cli|every key of the database|flushdb".into()),
            vec![]
        )
    );
    assert_eq!(judged("redis-cli < ok.txt"), (None, vec![]));
    assert_eq!(judged("redis-cli -h prod < /dev/null"), (None, vec![]));
    assert_eq!(
        judged("redis-cli --eval wipe.lua"),
        (
            Some("redis-cli|every key of the server|flushall".into()),
            vec![]
        )
    );
    assert_eq!(judged("redis-cli --eval get.lua k , 1"), (None, vec![]));
    assert_eq!(
        judged("redis-cli --eval gone.lua"),
        (None, vec!["`gone.lua` is not there".to_string()])
    );
}
