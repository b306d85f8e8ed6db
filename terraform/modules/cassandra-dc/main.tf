# One Cassandra DC of the deployment: self-managed Apache Cassandra 5.0 on EC2, nodes spread over
# the region's three zones (one rack per zone), data on encrypted EBS, no public addresses.
locals {
  cloud_region = data.aws_region.current.region

  cassandra_yaml = { for n in var.nodes : n.ip => templatefile("${path.module}/templates/cassandra.yaml.tftpl", {
    cluster_name       = var.cluster_name
    num_tokens         = var.num_tokens
    replication_factor = var.replication_factor
    seeds              = join(",", var.seeds)
    address            = n.ip
  }) }

  rackdc = { for n in var.nodes : n.ip => "dc=${var.dc}\nrack=${var.azs[n.az]}\nprefer_local=true\n" }
}

data "aws_region" "current" {}

resource "aws_security_group" "node" {
  name_prefix = "geobroker-${var.name}-cassandra-"
  description = "Cassandra ${var.dc}: CQL from the brokers only, internode only between Cassandra nodes"
  vpc_id      = var.vpc_id
  tags        = merge(var.tags, { Name = "geobroker-${var.name}-cassandra" })

  lifecycle {
    create_before_destroy = true
  }
}

resource "aws_vpc_security_group_ingress_rule" "internode_local" {
  security_group_id            = aws_security_group.node.id
  description                  = "Internode (7000 plain, 7001 TLS) between nodes of this DC"
  referenced_security_group_id = aws_security_group.node.id
  ip_protocol                  = "tcp"
  from_port                    = 7000
  to_port                      = 7001
}

resource "aws_vpc_security_group_ingress_rule" "internode_peer" {
  for_each          = toset(var.peer_node_addresses)
  security_group_id = aws_security_group.node.id
  description       = "Internode from a node of another DC (over VPC peering)"
  cidr_ipv4         = "${each.value}/32"
  ip_protocol       = "tcp"
  from_port         = 7000
  to_port           = 7001
}

resource "aws_vpc_security_group_ingress_rule" "cql" {
  count                        = length(var.client_security_group_ids)
  security_group_id            = aws_security_group.node.id
  description                  = "CQL from the region's brokers"
  referenced_security_group_id = var.client_security_group_ids[count.index]
  ip_protocol                  = "tcp"
  from_port                    = 9042
  to_port                      = 9042
}

resource "aws_vpc_security_group_egress_rule" "internode_local" {
  security_group_id            = aws_security_group.node.id
  description                  = "Internode to nodes of this DC"
  referenced_security_group_id = aws_security_group.node.id
  ip_protocol                  = "tcp"
  from_port                    = 7000
  to_port                      = 7001
}

resource "aws_vpc_security_group_egress_rule" "internode_peer" {
  for_each          = toset(var.peer_node_addresses)
  security_group_id = aws_security_group.node.id
  description       = "Internode to a node of another DC (over VPC peering)"
  cidr_ipv4         = "${each.value}/32"
  ip_protocol       = "tcp"
  from_port         = 7000
  to_port           = 7001
}

resource "aws_vpc_security_group_egress_rule" "https" {
  #checkov:skip=CKV_AWS_382:HTTPS out through the NAT gateway is needed for the Cassandra download, package updates and the SSM, Secrets Manager and KMS APIs.
  security_group_id = aws_security_group.node.id
  description       = "HTTPS to AWS APIs and archive.apache.org through the NAT gateway"
  cidr_ipv4         = "0.0.0.0/0"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
}

data "aws_iam_policy_document" "node" {
  statement {
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [var.internode_keystore_secret_arn]
  }
  statement {
    actions   = ["kms:Decrypt"]
    resources = [var.kms_key_arn]
  }
}

# Reached through SSM; reads its internode keystore from Secrets Manager.
module "role" {
  source      = "../instance-role"
  name_prefix = "geobroker-${var.name}-cassandra-"
  has_policy  = true
  policy_json = data.aws_iam_policy_document.node.json
  tags        = var.tags
}

resource "aws_instance" "node" {
  count                       = length(var.nodes)
  ami                         = var.ami_id
  instance_type               = var.instance_type
  subnet_id                   = var.subnet_ids[var.nodes[count.index].az]
  private_ip                  = var.nodes[count.index].ip
  vpc_security_group_ids      = [aws_security_group.node.id]
  iam_instance_profile        = module.role.instance_profile_name
  associate_public_ip_address = false
  ebs_optimized               = true
  monitoring                  = true

  metadata_options {
    http_endpoint               = "enabled"
    http_tokens                 = "required"
    http_put_response_hop_limit = 1
  }

  root_block_device {
    volume_type = "gp3"
    volume_size = 30
    encrypted   = true
    kms_key_id  = var.kms_key_arn
  }

  user_data = templatefile("${path.module}/templates/cloud-init.yaml.tftpl", {
    cassandra_version = var.cassandra_version
    cassandra_yaml    = local.cassandra_yaml[var.nodes[count.index].ip]
    rackdc            = local.rackdc[var.nodes[count.index].ip]
    heap_mb           = var.heap_mb
    cloud_region      = local.cloud_region
    keystore_secret   = var.internode_keystore_secret_arn
  })

  tags = merge(var.tags, { Name = "geobroker-${var.name}-cassandra-${count.index}", Role = "cassandra", Dc = var.dc })

  lifecycle {
    # A new AMI must not replace a data node; nodes are replaced one at a time by the operator.
    ignore_changes = [ami]
  }
}

resource "aws_ebs_volume" "data" {
  count             = length(var.nodes)
  availability_zone = var.azs[var.nodes[count.index].az]
  type              = "gp3"
  size              = var.data_volume_gb
  encrypted         = true
  kms_key_id        = var.kms_key_arn
  tags              = merge(var.tags, { Name = "geobroker-${var.name}-cassandra-${count.index}-data" })
}

resource "aws_volume_attachment" "data" {
  count       = length(var.nodes)
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.data[count.index].id
  instance_id = aws_instance.node[count.index].id
}
