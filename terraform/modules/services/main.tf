# The region's services on EC2: one broker-service (the single writer of the region's data, so
# exactly one instance, kept alive by EC2 auto-recovery) and N ticker-service instances. Each gets
# the topology file and its environment through cloud-init; secrets are read from Secrets
# Manager on the instance at service start and never pass through user data.
locals {
  cloud_region = data.aws_region.current.region
  release      = "s3://${var.release_bucket}/geobroker/${var.release_version}"

  broker_user_data = templatefile("${path.module}/templates/broker.yaml.tftpl", {
    region              = var.name
    cloud_region        = local.cloud_region
    release             = local.release
    topology_properties = var.topology_properties
    admin_secret        = var.admin_token_secret_arn
    peer_secret         = var.peer_token_secret_arn
  })
  ticker_user_data = templatefile("${path.module}/templates/ticker.yaml.tftpl", {
    release             = local.release
    topology_properties = var.topology_properties
  })
}

data "aws_region" "current" {}

resource "aws_security_group" "broker" {
  name_prefix = "geobroker-${var.name}-broker-"
  description = "broker-service ${var.name}: REST from allowed CIDRs and peer brokers only"
  vpc_id      = var.vpc_id
  tags        = merge(var.tags, { Name = "geobroker-${var.name}-broker" })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_security_group" "ticker" {
  name_prefix = "geobroker-${var.name}-ticker-"
  description = "ticker-service ${var.name}: metrics scrape only"
  vpc_id      = var.vpc_id
  tags        = merge(var.tags, { Name = "geobroker-${var.name}-ticker" })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_vpc_security_group_ingress_rule" "rest" {
  for_each          = toset(var.rest_allowed_cidrs)
  security_group_id = aws_security_group.broker.id
  description       = "REST API from an allowed client range"
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 8080
  to_port           = 8080
}

resource "aws_vpc_security_group_ingress_rule" "fix" {
  for_each          = toset(var.rest_allowed_cidrs)
  security_group_id = aws_security_group.broker.id
  description       = "FIX 4.4 order entry from an allowed client range"
  cidr_ipv4         = each.value
  ip_protocol       = "tcp"
  from_port         = 9878
  to_port           = 9878
}

resource "aws_vpc_security_group_ingress_rule" "rest_from_peers" {
  for_each          = toset(var.peer_broker_addresses)
  security_group_id = aws_security_group.broker.id
  description       = "Market orders routed from another region's broker (over VPC peering)"
  cidr_ipv4         = "${each.value}/32"
  ip_protocol       = "tcp"
  from_port         = 8080
  to_port           = 8080
}

resource "aws_vpc_security_group_ingress_rule" "metrics" {
  for_each          = { for pair in setproduct(["broker", "ticker"], var.metrics_allowed_cidrs) : "${pair[0]} ${pair[1]}" => { sg = pair[0], cidr = pair[1] } }
  security_group_id = each.value.sg == "broker" ? aws_security_group.broker.id : aws_security_group.ticker.id
  description       = "Prometheus scrape of /actuator/prometheus"
  cidr_ipv4         = each.value.cidr
  ip_protocol       = "tcp"
  from_port         = 8080
  to_port           = 8080
}

resource "aws_vpc_security_group_egress_rule" "cql" {
  security_group_id = aws_security_group.broker.id
  description       = "CQL to the region's Cassandra DC"
  cidr_ipv4         = var.vpc_cidr
  ip_protocol       = "tcp"
  from_port         = 9042
  to_port           = 9042
}

resource "aws_vpc_security_group_egress_rule" "kafka" {
  for_each          = { broker = aws_security_group.broker.id, ticker = aws_security_group.ticker.id }
  security_group_id = each.value
  description       = "Kafka in the region"
  cidr_ipv4         = var.vpc_cidr
  ip_protocol       = "tcp"
  from_port         = 9092
  to_port           = 9092
}

resource "aws_vpc_security_group_egress_rule" "peer_brokers" {
  for_each          = toset(var.peer_broker_addresses)
  security_group_id = aws_security_group.broker.id
  description       = "Market orders routed to another region's broker"
  cidr_ipv4         = "${each.value}/32"
  ip_protocol       = "tcp"
  from_port         = 8080
  to_port           = 8080
}

resource "aws_vpc_security_group_egress_rule" "https" {
  #checkov:skip=CKV_AWS_382:HTTPS out through the NAT gateway is needed for S3 (release jars), package updates and the SSM, Secrets Manager and KMS APIs.
  for_each          = { broker = aws_security_group.broker.id, ticker = aws_security_group.ticker.id }
  security_group_id = each.value
  description       = "HTTPS to AWS APIs through the NAT gateway"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

data "aws_iam_policy_document" "broker" {
  statement {
    actions   = ["s3:GetObject"]
    resources = ["arn:aws:s3:::${var.release_bucket}/geobroker/${var.release_version}/*"]
  }
  statement {
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [var.admin_token_secret_arn, var.peer_token_secret_arn]
  }
  statement {
    actions   = ["kms:Decrypt"]
    resources = [var.kms_key_arn]
  }
}

data "aws_iam_policy_document" "ticker" {
  statement {
    actions   = ["s3:GetObject"]
    resources = ["arn:aws:s3:::${var.release_bucket}/geobroker/${var.release_version}/ticker-service.jar"]
  }
}

# One role per service, each reached through SSM and allowed only what that service reads.
module "role" {
  source = "../instance-role"
  for_each = {
    broker = data.aws_iam_policy_document.broker.json
    ticker = data.aws_iam_policy_document.ticker.json
  }
  name_prefix = "geobroker-${var.name}-${each.key}-"
  has_policy  = true
  policy_json = each.value
  tags        = var.tags
}

resource "aws_instance" "broker" {
  ami                         = var.ami_id
  instance_type               = var.broker_instance_type
  subnet_id                   = var.subnet_ids[var.broker.az]
  private_ip                  = var.broker.ip
  vpc_security_group_ids      = [aws_security_group.broker.id]
  iam_instance_profile        = module.role["broker"].instance_profile_name
  associate_public_ip_address = false
  ebs_optimized               = true
  monitoring                  = true
  user_data                   = local.broker_user_data
  user_data_replace_on_change = true

  maintenance_options {
    auto_recovery = "default"
  }

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = 20
    encrypted   = true
    kms_key_id  = var.kms_key_arn
  }

  tags = merge(var.tags, { Name = "geobroker-${var.name}-broker", Role = "broker" })
}

resource "aws_instance" "ticker" {
  count                       = length(var.tickers)
  ami                         = var.ami_id
  instance_type               = var.ticker_instance_type
  subnet_id                   = var.subnet_ids[var.tickers[count.index].az]
  private_ip                  = var.tickers[count.index].ip
  vpc_security_group_ids      = [aws_security_group.ticker.id]
  iam_instance_profile        = module.role["ticker"].instance_profile_name
  associate_public_ip_address = false
  ebs_optimized               = true
  monitoring                  = true
  user_data                   = local.ticker_user_data
  user_data_replace_on_change = true

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = 20
    encrypted   = true
    kms_key_id  = var.kms_key_arn
  }

  tags = merge(var.tags, { Name = "geobroker-${var.name}-ticker-${count.index}", Role = "ticker" })
}
