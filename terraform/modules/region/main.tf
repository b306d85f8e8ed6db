# Everything one region runs: its key, secrets, network, Cassandra DC, Kafka and services.
# Addresses come from the topology module, so regions never wait for each other's resources;
# the environment adds the peering between regions.
locals {
  region = var.topology[var.name]
  peers  = { for name, r in var.topology : name => r if name != var.name }
  ami_id = var.ami_id != null ? var.ami_id : data.aws_ami.al2023[0].id
  tags   = merge(var.tags, { Project = "geobroker", Region = var.name })
}

data "aws_caller_identity" "current" {}

data "aws_ami" "al2023" {
  count       = var.ami_id == null ? 1 : 0
  most_recent = true
  owners      = ["amazon"]
  filter {
    name   = "name"
    values = ["al2023-ami-2023.*-x86_64"]
  }
}

data "aws_iam_policy_document" "key" {
  #checkov:skip=CKV_AWS_356:In a key policy, resource "*" means this key only.
  #checkov:skip=CKV_AWS_111:In a key policy, resource "*" means this key only; the account root delegates to IAM policies.
  #checkov:skip=CKV_AWS_109:In a key policy, resource "*" means this key only; the account root delegates to IAM policies.
  statement {
    sid       = "AccountAdministersTheKeyThroughIam"
    actions   = ["kms:*"]
    resources = ["*"]
    principals {
      type        = "AWS"
      identifiers = ["arn:aws:iam::${data.aws_caller_identity.current.account_id}:root"]
    }
  }
  statement {
    sid       = "CloudWatchLogsEncryptsTheFlowLogs"
    actions   = ["kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey"]
    resources = ["*"]
    principals {
      type        = "Service"
      identifiers = ["logs.${local.region.cloud_region}.amazonaws.com"]
    }
  }
}

resource "aws_kms_key" "this" {
  description             = "geobroker ${var.name}: EBS volumes, secrets, flow logs"
  enable_key_rotation     = true
  deletion_window_in_days = 30
  policy                  = data.aws_iam_policy_document.key.json
  tags                    = local.tags
}

resource "aws_kms_alias" "this" {
  name          = "alias/geobroker-${var.name}"
  target_key_id = aws_kms_key.this.key_id
}

# Secret containers only: the operator puts the values (see README). Terraform never sees them.
resource "aws_secretsmanager_secret" "this" {
  #checkov:skip=CKV2_AWS_57:Static shared tokens and the internode keystore are rotated by the operator's procedure (README), not by a rotation Lambda.
  for_each                = toset(["admin-token", "peer-token", "cassandra-internode"])
  name                    = "geobroker/${var.name}/${each.key}"
  description             = "geobroker ${var.name} ${each.key} (value set by the operator)"
  kms_key_id              = aws_kms_key.this.arn
  recovery_window_in_days = 7
  tags                    = local.tags
}

module "network" {
  source             = "../network"
  name               = var.name
  cidr               = local.region.cidr
  azs                = var.azs
  public_subnets     = local.region.public_subnets
  app_subnets        = local.region.app_subnets
  data_subnets       = local.region.data_subnets
  nat_gateway_per_az = var.nat_gateway_per_az
  kms_key_arn        = aws_kms_key.this.arn
  tags               = local.tags
}

module "services" {
  source                 = "../services"
  name                   = var.name
  vpc_id                 = module.network.vpc_id
  vpc_cidr               = local.region.cidr
  subnet_ids             = module.network.app_subnet_ids
  broker                 = local.region.broker
  tickers                = local.region.tickers
  topology_properties    = var.topology_properties
  rest_allowed_cidrs     = var.rest_allowed_cidrs
  metrics_allowed_cidrs  = var.metrics_allowed_cidrs
  peer_broker_addresses  = [for p in values(local.peers) : p.broker.ip]
  admin_token_secret_arn = aws_secretsmanager_secret.this["admin-token"].arn
  peer_token_secret_arn  = aws_secretsmanager_secret.this["peer-token"].arn
  release_bucket         = var.release_bucket
  release_version        = var.release_version
  broker_instance_type   = var.sizes.broker_instance_type
  ticker_instance_type   = var.sizes.ticker_instance_type
  ami_id                 = local.ami_id
  kms_key_arn            = aws_kms_key.this.arn
  tags                   = local.tags
}

module "cassandra" {
  source                        = "../cassandra-dc"
  name                          = var.name
  dc                            = local.region.dc
  vpc_id                        = module.network.vpc_id
  azs                           = var.azs
  subnet_ids                    = module.network.data_subnet_ids
  nodes                         = local.region.cassandra
  seeds                         = var.seeds
  peer_node_addresses           = flatten([for p in values(local.peers) : [for c in p.cassandra : c.ip]])
  client_security_group_ids     = [module.services.broker_security_group_id]
  replication_factor            = local.region.replication_factor
  instance_type                 = var.sizes.cassandra_instance_type
  heap_mb                       = var.sizes.cassandra_heap_mb
  data_volume_gb                = var.sizes.cassandra_volume_gb
  ami_id                        = local.ami_id
  kms_key_arn                   = aws_kms_key.this.arn
  internode_keystore_secret_arn = aws_secretsmanager_secret.this["cassandra-internode"].arn
  tags                          = local.tags
}

module "kafka" {
  source                    = "../kafka"
  name                      = var.name
  vpc_id                    = module.network.vpc_id
  azs                       = var.azs
  subnet_ids                = module.network.data_subnet_ids
  brokers                   = local.region.kafka
  client_security_group_ids = [module.services.broker_security_group_id, module.services.ticker_security_group_id]
  instance_type             = var.sizes.kafka_instance_type
  heap_mb                   = var.sizes.kafka_heap_mb
  data_volume_gb            = var.sizes.kafka_volume_gb
  ami_id                    = local.ami_id
  kms_key_arn               = aws_kms_key.this.arn
  tags                      = local.tags
}
